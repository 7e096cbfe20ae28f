"""Tournament reads for the screens: lobby rows, a tournament's page, a table's tournament facts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Q

from tables.models import Seat

from .models import BlindLevel, Entry, Result, Tournament, TournamentTable
from .services.payouts import prize_pool


@dataclass(frozen=True)
class LevelFacts:
    number: int
    level: BlindLevel | None
    next_level: BlindLevel | None
    ends_at: datetime | None
    on_break_until: datetime | None


def level_facts(tournament: Tournament, now: datetime) -> LevelFacts:
    levels = list(BlindLevel.objects.filter(tournament=tournament).order_by("number"))
    number = max(tournament.level, 1)
    current = next((lv for lv in reversed(levels) if lv.number <= number), levels[0] if levels else None)
    following = next((lv for lv in levels if lv.number > number), None)
    ends_at = None
    if tournament.level_started_at is not None and current is not None:
        ends_at = tournament.level_started_at + timedelta(minutes=current.minutes)
    on_break = tournament.break_until if tournament.break_until and now < tournament.break_until else None
    return LevelFacts(number, current, following, ends_at, on_break)


@dataclass(frozen=True)
class LobbyRow:
    tournament: Tournament
    entrants: int
    prize_pool: int
    registered: bool
    facts: LevelFacts
    my_table_id: int | None


def lobby_rows(user, now: datetime) -> list[LobbyRow]:
    """Registering and running tournaments, then the latest finished ones."""
    live = Q(entries__state__in=[Entry.State.REGISTERED, Entry.State.PLAYING, Entry.State.ELIMINATED])
    tournaments = list(
        Tournament.objects.filter(state__in=[Tournament.State.REGISTERING, Tournament.State.RUNNING])
        .annotate(entrants=Count("entries", filter=live))
        .order_by("state", "starts_at", "pk")
    ) + list(
        Tournament.objects.filter(state__in=[Tournament.State.FINISHED, Tournament.State.CANCELLED])
        .annotate(entrants=Count("entries", filter=live))
        .order_by("-finished_at")[:10]
    )
    marks = marks_of(user) if user.is_authenticated else {}
    return [
        LobbyRow(
            t, t.entrants, prize_pool(t), t.pk in marks, level_facts(t, now), marks.get(t.pk, Mark(False)).table_id
        )
        for t in tournaments
    ]


@dataclass(frozen=True)
class Mark:
    """What the lobby shows one player of a tournament: registered (or playing), and at which table."""

    registered: bool
    table_id: int | None = None


def marks_of(user) -> dict[int, Mark]:
    """Tournament id -> the player's mark, for the tournaments they are in."""
    live = Entry.objects.filter(player=user, state__in=[Entry.State.REGISTERED, Entry.State.PLAYING])
    marks = {tournament_id: Mark(True) for tournament_id in live.values_list("tournament_id", flat=True)}
    for tournament_id, table_id in Seat.objects.filter(
        player=user, table__is_tournament=True, table__is_active=True
    ).values_list("table__tournament_table__tournament_id", "table_id"):
        marks[tournament_id] = Mark(True, table_id)
    return marks


def marks_in(tournament_id: int) -> dict[int, Mark]:
    """Player id -> their mark, for every player in one tournament (two statements)."""
    live = Entry.objects.filter(tournament_id=tournament_id, state__in=[Entry.State.REGISTERED, Entry.State.PLAYING])
    marks = {player_id: Mark(True) for player_id in live.values_list("player_id", flat=True)}
    table_ids = TournamentTable.objects.filter(tournament_id=tournament_id, broken=False).values_list("table_id")
    for player_id, table_id in Seat.objects.filter(table_id__in=table_ids, table__is_active=True).values_list(
        "player_id", "table_id"
    ):
        marks[player_id] = Mark(True, table_id)
    return marks


@dataclass(frozen=True)
class TableFacts:
    """What a tournament table's page shows: the level, the next, its time, my place, the average stack."""

    tournament: Tournament
    facts: LevelFacts
    players_left: int
    entries: int
    average_stack: int
    my_place: int | None
    my_stack: int | None


def table_facts(table_id: int, user, now: datetime) -> TableFacts | None:
    link = TournamentTable.objects.select_related("tournament").filter(table_id=table_id).first()
    if link is None:
        return None
    tournament = link.tournament
    table_ids = TournamentTable.objects.filter(tournament=tournament, broken=False).values_list("table_id", flat=True)
    stacks = dict(Seat.objects.filter(table_id__in=table_ids).values_list("player_id", "stack"))
    left = len(stacks)
    entries = Entry.objects.filter(tournament=tournament).exclude(state=Entry.State.REFUNDED).count()
    my_stack = stacks.get(user.pk) if user.is_authenticated else None
    my_place = None if my_stack is None else 1 + sum(1 for stack in stacks.values() if stack > my_stack)
    average = sum(stacks.values()) // left if left else 0
    return TableFacts(tournament, level_facts(tournament, now), left, entries, average, my_place, my_stack)


def results(tournament: Tournament) -> list[Result]:
    return list(
        Result.objects.filter(tournament=tournament).select_related("player").order_by("place", "player__username")
    )
