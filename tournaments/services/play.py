"""A running tournament between hands (RULES 8.2-8.11): the start, levels and breaks,
eliminations and finishing places, balancing, breaking tables, hand-for-hand and the finish.

``advance`` does it all for one tournament in one transaction (the tournament locked, its
tables first); the table clock calls it every tick (``clock.tick``) and a table deals only when
``TournamentTableRules.may_deal`` finds nothing left for it to do.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone

from tables.models import Hand, HandPlayer, Seat, Table
from tables.services.changes import mark_changed
from tables.services.contributions import ensure_next_seed
from tables.services.table_rules import HandStakes

from .. import rules
from ..models import BlindLevel, Entry, Result, Tournament, TournamentTable
from . import hand_for_hand, notify
from .locks import lock_tournament
from .payouts import fix_payouts, pay_results, prizes
from .seating import last_big_blind, move_player, seat_player, shuffled, unseat

_random = secrets.SystemRandom()


# --- the seam: what a tournament table asks before each hand ----------------------------


class TournamentTableRules:
    """Registered with ``tables.services.table_rules`` when the app starts."""

    def stakes(self, table: Table, now: datetime) -> HandStakes:
        """The current level's (RULES 8.3); the level is read as the hand is dealt."""
        tournament = table.tournament_table.tournament
        level = current_level(tournament)
        small_blind, big_blind, big_bet = level.stakes(tournament.variant)
        return HandStakes(small_blind, big_blind, big_bet, level.ante, level.number)

    def may_deal(self, table: Table, now: datetime) -> bool:
        link = TournamentTable.objects.select_related("tournament").filter(table=table).first()
        if link is None or link.broken:
            return False
        return not waits(link.tournament, link, now)


def current_level(tournament: Tournament) -> BlindLevel:
    """The level in play; past the schedule's end, its last level stays."""
    levels = BlindLevel.objects.filter(tournament=tournament)
    return (
        levels.filter(number__lte=max(tournament.level, 1)).order_by("-number").first()
        or levels.order_by("number").first()
    )


def waits(tournament: Tournament, link: TournamentTable, now: datetime) -> bool:
    """Whether a table must wait before its next hand: the tournament is not running or is on a
    break (RULES 8.3), a player busted there is not yet placed (RULES 8.6), a player must move
    from it or it must break (RULES 8.7, 8.8), or it has played its hand-for-hand hand (RULES 8.9)."""
    if tournament.state != Tournament.State.RUNNING:
        return True
    if tournament.break_until is not None and now < tournament.break_until:
        return True
    if Seat.objects.filter(table_id=link.table_id, stack=0).exists():
        return True
    counts = player_counts(tournament)
    if rules.balancing_move(counts) is not None and rules.balancing_move(counts)[0] == link.table_id:
        return True
    if rules.table_to_break(counts, tournament.break_order, tournament.seats_per_table) == link.table_id:
        return True
    if tournament.hand_for_hand:
        return hand_for_hand.table_waits(tournament, link)
    return False


def player_counts(tournament: Tournament) -> dict[int, int]:
    """Players per unbroken table."""
    table_ids = list(
        TournamentTable.objects.filter(tournament=tournament, broken=False).values_list("table_id", flat=True)
    )
    counts = dict(
        Seat.objects.filter(table_id__in=table_ids).values_list("table_id").annotate(n=Count("id")).order_by()
    )
    return {table_id: counts.get(table_id, 0) for table_id in table_ids}


def hand_running(table_id: int) -> bool:
    return Hand.objects.filter(table_id=table_id, state=Hand.State.RUNNING).exists()


# --- the start (RULES 8.2, 8.8) ----------------------------------------------------------


def start(tournament: Tournament, now: datetime) -> bool:
    """Seat the entrants at random at as few tables as the field needs, balanced, the first
    buttons drawn at random (RULES 8.2), the breaking order drawn (RULES 8.8). The caller holds
    the tournament's lock. Below the minimum it starts nothing and returns False (the caller
    cancels it, RULES 8.12)."""
    entries = shuffled(list(Entry.objects.filter(tournament=tournament, state=Entry.State.REGISTERED)))
    if len(entries) < tournament.min_entrants:
        return False
    level = current_level(tournament) or ensure_levels(tournament)
    small, big = level.small, level.big
    links = []
    position = 0
    for number, size in enumerate(rules.initial_tables(len(entries), tournament.seats_per_table), start=1):
        table = Table.objects.create(
            name=f"{tournament.name} #{tournament.pk}.{number}"[-60:],
            variant=tournament.variant,
            stake_small=small,
            stake_big=big,
            seat_count=tournament.seats_per_table,
            min_buy_in=tournament.starting_chips,
            max_buy_in=tournament.starting_chips,
            action_seconds=tournament.action_seconds,
            countdown_seconds=tournament.countdown_seconds,
            is_tournament=True,
        )
        ensure_next_seed(table)
        links.append(TournamentTable.objects.create(tournament=tournament, table=table, number=number))
        numbers = _random.sample(range(1, tournament.seats_per_table + 1), size)
        # Seated in a random order: the first seated has the first button (RULES 2.1, 8.2).
        for entry, seat_number in zip(entries[position : position + size], numbers, strict=True):
            seat_player(table, entry.player, tournament.starting_chips, seat_number, arriving=False)
            entry.state = Entry.State.PLAYING
            entry.starting_stack = tournament.starting_chips
            entry.save(update_fields=["state", "starting_stack"])
        position += size
        mark_changed(table, lobby_list=True)
    tournament.state = Tournament.State.RUNNING
    tournament.level = 1
    tournament.level_started_at = tournament.started_at = now
    tournament.break_order = [link.table_id for link in shuffled(links)]
    tournament.save()
    if tournament.late_registration_levels == 0:
        fix_payouts(tournament)
    notify.started(tournament)  # each player is alerted, with their table (RULES 8.2)
    return True


def ensure_levels(tournament: Tournament) -> BlindLevel:
    """A tournament saved without levels plays its variant's default schedule."""
    if not BlindLevel.objects.filter(tournament=tournament).exists():
        BlindLevel.objects.bulk_create(
            BlindLevel(tournament=tournament, number=number, small=level.small, big=level.big, ante=level.ante,
                       minutes=level.minutes)
            for number, level in enumerate(rules.default_schedule(tournament.variant), start=1)
        )  # fmt: skip
    return current_level(tournament)


# --- between hands ------------------------------------------------------------------------


def advance(*, tournament_id: int, now: datetime | None = None) -> Tournament:
    """Everything a running tournament does between hands, in one transaction."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament, tables = lock_tournament(tournament_id)
        if tournament.state != Tournament.State.RUNNING:
            return tournament
        changed: set[int] = set()
        before = (tournament.level, tournament.break_until, tournament.payout_percentages, tournament.hand_for_hand)
        _rise_levels(tournament, now)
        links = {link.table_id: link for link in TournamentTable.objects.filter(tournament=tournament, broken=False)}
        idle = {table_id for table_id in links if not hand_running(table_id)}
        round_complete = tournament.hand_for_hand and hand_for_hand.round_over(links, idle, player_counts(tournament))
        if tournament.hand_for_hand and not round_complete:
            idle = hand_for_hand.before_the_round(links, idle)  # only their busts are placed now
        changed |= _eliminate(tournament, idle, across_tables=round_complete)
        if _alive(tournament) <= 1:
            _finish(tournament, links, now)
            changed |= set(links)
        else:
            changed |= _break_tables(tournament, links, idle)
            changed |= _balance(tournament, links, idle)
            hand_for_hand.set_hand_for_hand(tournament, links, _alive(tournament))
        after = (tournament.level, tournament.break_until, tournament.payout_percentages, tournament.hand_for_hand)
        if not changed and after == before and tournament.state == Tournament.State.RUNNING:
            return tournament  # nothing happened this tick: no write, no broadcast
        tournament.version += 1
        tournament.save()
        by_id = {table.pk: table for table in tables}
        for table_id in changed:
            if table_id in by_id:
                table = by_id[table_id]
                table.refresh_from_db(fields=["is_active"])  # a broken table closed: kept closed by the save
                mark_changed(table, lobby_list=not table.is_active)
        notify.changed(tournament)
    return tournament


def _rise_levels(tournament: Tournament, now: datetime) -> None:
    """RULES 8.3: a level's time up, the next hand plays the next level; the scheduled breaks."""
    while tournament.level_started_at is not None:
        level = current_level(tournament)
        ends = tournament.level_started_at + timedelta(minutes=level.minutes)
        if now < ends:
            break
        tournament.level_started_at = ends
        if tournament.break_every_levels and tournament.level % tournament.break_every_levels == 0:
            tournament.break_until = ends + timedelta(minutes=tournament.break_minutes)
            tournament.level_started_at = tournament.break_until
        tournament.level += 1
    if tournament.payout_percentages is None and tournament.level > tournament.late_registration_levels:
        fix_payouts(tournament)  # RULES 8.10: fixed when late registration closes
        _place_pending(tournament)


def _alive(tournament: Tournament) -> int:
    return Entry.objects.filter(tournament=tournament, state=Entry.State.PLAYING).count()


def _eliminate(tournament: Tournament, idle: set[int], *, across_tables: bool) -> set[int]:
    """RULES 8.6: players with no chips after a hand at an idle table leave with their finishing
    place; ``across_tables``: a hand-for-hand round is over, all its tables' busts together (RULES 8.9)."""
    busted = list(
        Seat.objects.filter(table_id__in=idle, stack=0).select_related("player", "session").order_by("table_id")
    )
    if not busted:
        return set()
    groups: dict[int, list[Seat]] = defaultdict(list)
    for seat in busted:
        groups[0 if across_tables else seat.table_id].append(seat)
    group_number = (Entry.objects.filter(tournament=tournament).aggregate(n=Max("bust_group"))["n"] or 0) + 1
    # Tables whose hand ended first busted their players first: they place lower.
    ended = dict(
        Hand.objects.filter(table_id__in=groups, state=Hand.State.COMPLETE)
        .values_list("table_id")
        .annotate(last=Max("ended_at"))
        .order_by()
    )
    for key in sorted(groups, key=lambda table_id: (ended.get(table_id) or _earliest(), table_id)):
        seats = groups[key]
        order = _odd_chip_order(seats, cross_tables=across_tables)
        for seat in seats:
            entry = Entry.objects.get(tournament=tournament, player=seat.player, state=Entry.State.PLAYING)
            entry.state = Entry.State.ELIMINATED
            entry.bust_group = group_number
            entry.bust_order = order[seat.pk]
            entry.starting_stack = _starting_stack(seat)
            entry.save(update_fields=["state", "bust_group", "bust_order", "starting_stack"])
            unseat(seat)
        group_number += 1
    _place_pending(tournament)
    return {seat.table_id for seat in busted}


def _earliest() -> datetime:
    return datetime.min.replace(tzinfo=timezone.get_current_timezone())


def _starting_stack(seat: Seat) -> int:
    last = HandPlayer.objects.filter(hand__table_id=seat.table_id, player=seat.player).order_by("-hand__number").first()
    return 0 if last is None else last.starting_stack


def _odd_chip_order(seats: list[Seat], *, cross_tables: bool) -> dict[int, int]:
    """RULES 8.6: the first to the left of the button first; across tables a random draw (8.9)."""
    if cross_tables:
        return {seat.pk: k for k, seat in enumerate(shuffled(seats))}
    hand = Hand.objects.filter(table_id=seats[0].table_id).order_by("-number").only("config", "table").first()
    button = 0 if hand is None else hand.config["button"]
    count = seats[0].table.seat_count
    ordered = sorted(seats, key=lambda seat: (seat.number - button - 1) % count)
    return {seat.pk: k for k, seat in enumerate(ordered)}


def _place_pending(tournament: Tournament) -> None:
    """Give the eliminated their places once the places paid are fixed (RULES 8.10), group by
    group in elimination order; a player re-entered keeps only their last entry's place."""
    if tournament.payout_percentages is None:
        return
    placed = set(Result.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    playing = set(
        Entry.objects.filter(tournament=tournament, state=Entry.State.PLAYING).values_list("player_id", flat=True)
    )
    latest: dict[int, Entry] = {}  # a player's last entry: the one their place comes from
    for entry in Entry.objects.filter(tournament=tournament, state=Entry.State.ELIMINATED).order_by("pk"):
        if entry.player_id not in placed and entry.player_id not in playing:
            latest[entry.player_id] = entry
    groups: dict[int, list[Entry]] = defaultdict(list)
    for entry in latest.values():
        groups[entry.bust_group or 0].append(entry)
    amounts = prizes(tournament)
    for number in sorted(groups):
        later = sum(len(groups[g]) for g in groups if g >= number)
        remaining = _alive(tournament) + later
        busts = [rules.Bust(e.player_id, e.starting_stack, e.bust_order) for e in groups[number]]
        for placed_one in rules.place_busts(busts, remaining, amounts):
            Result.objects.create(
                tournament=tournament, player_id=placed_one.player, place=placed_one.place, prize=placed_one.prize
            )
        del groups[number]


def _finish(tournament: Tournament, links: dict[int, TournamentTable], now: datetime) -> None:
    """The last player standing wins; every prize is paid; the tables close."""
    fix_payouts(tournament)
    _place_pending(tournament)
    for entry in Entry.objects.filter(tournament=tournament, state=Entry.State.PLAYING):
        entry.state = Entry.State.ELIMINATED  # the winner's entry ends too
        entry.save(update_fields=["state"])
        Result.objects.create(
            tournament=tournament, player=entry.player, place=1, prize=rules.prize_of(prizes(tournament), 1)
        )
    for seat in Seat.objects.filter(table_id__in=links).select_related("session"):
        unseat(seat)
    close_tables(tournament, links)
    pay_results(tournament)
    tournament.state = Tournament.State.FINISHED
    tournament.finished_at = now
    tournament.hand_for_hand = False


def close_tables(tournament: Tournament, links: dict[int, TournamentTable]) -> None:
    for table_id, link in links.items():
        Table.objects.filter(pk=table_id).update(is_active=False)
        link.broken = True
        link.save(update_fields=["broken"])


def _break_tables(tournament: Tournament, links: dict[int, TournamentTable], idle: set[int]) -> set[int]:
    """RULES 8.8: break the next table in the fixed order as soon as the field fits on one
    table fewer (once its hand is over); its players take free seats by random draw."""
    changed: set[int] = set()
    while True:
        counts = player_counts(tournament)
        breaking = rules.table_to_break(counts, tournament.break_order, tournament.seats_per_table)
        if breaking is None or breaking not in idle:
            return changed
        others = [links[t].table for t in counts if t != breaking]
        for seat in shuffled(list(Seat.objects.filter(table_id=breaking).select_related("player", "session"))):
            # A free seat drawn at random among all the free seats left (RULES 8.8).
            free = [table for table in others for _ in range(_free_count(table))]
            to = _random.choice(free)
            move_player(seat, to, worst=False)
            changed.add(to.pk)
        Table.objects.filter(pk=breaking).update(is_active=False)
        links[breaking].broken = True
        links[breaking].save(update_fields=["broken"])
        del links[breaking]
        idle.discard(breaking)
        changed.add(breaking)


def _free_count(table: Table) -> int:
    return table.seat_count - Seat.objects.filter(table=table).count()


def _balance(tournament: Tournament, links: dict[int, TournamentTable], idle: set[int]) -> set[int]:
    """RULES 8.7: while the fullest table has two players more than the shortest, the player
    due the next big blind at the fullest moves to the seat at the shortest that posts the big
    blind soonest. A table in a hand moves its player when the hand is over."""
    changed: set[int] = set()
    while True:
        move = rules.balancing_move(player_counts(tournament))
        if move is None or move[0] not in idle:
            return changed
        source, target = links[move[0]].table, links[move[1]].table
        seats = {seat.number: seat for seat in Seat.objects.filter(table=source).select_related("player", "session")}
        number = rules.next_big_blind(sorted(seats), last_big_blind(source), source.seat_count)
        move_player(seats[number], target, worst=True)
        changed |= {source.pk, target.pk}
