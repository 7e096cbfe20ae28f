"""Driving tournaments through the services, as players and the clock would."""

from __future__ import annotations

import random
import uuid
from datetime import datetime

from django.utils import timezone

from tables import services as table_services
from tables.models import Hand, Seat, Table
from tournaments.models import BlindLevel, Tournament, TournamentTable
from tournaments.services import registration
from tournaments.services.clock import tick

from ..support.tables import play_random_action


def make_tournament(**overrides) -> Tournament:
    spec = {
        "name": f"Sit & go {uuid.uuid4().hex[:6]}",
        "kind": Tournament.Kind.SIT_AND_GO,
        "variant": "pot_limit",
        "seats_per_table": 6,
        "buy_in": 100,
        "fee": 10,
        "starting_chips": 300,
        "min_entrants": 2,
        "max_entrants": 3,
        "action_seconds": 10,
    }
    levels = overrides.pop("levels", [(10, 20, 0, 10), (20, 40, 0, 10), (50, 100, 100, 10), (100, 200, 200, 10)])
    spec.update(overrides)
    tournament = Tournament(**spec)
    tournament.full_clean()
    tournament.save()
    BlindLevel.objects.bulk_create(
        BlindLevel(tournament=tournament, number=n, small=s, big=b, ante=a, minutes=m)
        for n, (s, b, a, m) in enumerate(levels, start=1)
    )
    return tournament


def register(tournament, player, now=None):
    return registration.register(
        user=player, tournament_id=tournament.pk, request_id=uuid.uuid4().hex, now=now or timezone.now()
    )


def tables_of(tournament) -> list[Table]:
    ids = TournamentTable.objects.filter(tournament=tournament, broken=False).values_list("table_id", flat=True)
    return list(Table.objects.filter(pk__in=ids).order_by("pk"))


def running_hand(table) -> Hand | None:
    return Hand.objects.filter(table=table, state=Hand.State.RUNNING).first()


def play_round(tournament, rng: random.Random, now: datetime, on_hand_end=None, after_tick=None) -> None:
    """One tick of the clock, then every table that may deal plays one hand of random actions."""
    tick(now)
    if after_tick is not None:
        after_tick()
    for table in tables_of(tournament):
        if running_hand(table) is None and table_services.start_hand_if_due(table_id=table.pk, now=now) is None:
            continue
        while running_hand(table) is not None:
            by_seat = {s.number: s.player for s in Seat.objects.filter(table=table)}
            play_random_action(table, by_seat, rng)
        if on_hand_end is not None:
            on_hand_end()


def play_to_the_end(tournament, rng: random.Random, now: datetime, *, step=None, rounds: int = 600) -> datetime:
    """Rounds of random play, ``step`` (a minute unless given) apart, until the tournament finishes;
    the time it finished at."""
    from datetime import timedelta

    step = step or timedelta(minutes=1)
    for _ in range(rounds):
        now += step
        play_round(tournament, rng, now)
        tournament.refresh_from_db()
        if tournament.state == Tournament.State.FINISHED:
            return now
    raise AssertionError(f"{tournament} did not finish in {rounds} rounds")
