"""The live room as staff see it: every running table with its hand, players, the time on the
current turn, the last action and a "stuck" mark; the clock's last tick; sockets open.

A handful of queries for the whole room, read only while a staff page shows it (never on
the players' path)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.db.models import OuterRef, Subquery

from config.outages import OUTAGES
from tables.models import Hand, HandEvent, Seat
from tables.realtime import sockets

from .clock_health import LAST_TICK_KEY
from .exposition import STUCK_AFTER

PAGES = ("table", "lobby", "tournaments", "staff")


@dataclass(frozen=True)
class RunningTable:
    table_id: int
    name: str
    hand_id: int
    hand_number: int
    players: list[str]
    to_act: str
    on_turn_seconds: float | None
    last_action: str
    stuck: bool


@dataclass(frozen=True)
class Room:
    tables: list[RunningTable]
    last_tick_seconds_ago: float | None  # None: no tick seen (no clock, or the cache is away)
    sockets_open: dict[str, int]


def room_now(now: datetime) -> Room:
    last_event = HandEvent.objects.filter(hand=OuterRef("pk")).order_by("-sequence")
    hands = list(
        Hand.objects.filter(state=Hand.State.RUNNING)
        .select_related("table")
        .annotate(last_type=Subquery(last_event.values("type")[:1]))
        .order_by("table__name")
    )
    seats: dict[int, dict[int, str]] = {}
    for table_id, number, username in Seat.objects.filter(table__in=[h.table_id for h in hands]).values_list(
        "table_id", "number", "player__username"
    ):
        seats.setdefault(table_id, {})[number] = username
    tables = []
    for hand in hands:
        at_table = seats.get(hand.table_id, {})
        tables.append(
            RunningTable(
                table_id=hand.table_id,
                name=hand.table.name,
                hand_id=hand.pk,
                hand_number=hand.number,
                players=[at_table[n] for n in sorted(at_table)],
                to_act=at_table.get(hand.turn_seat, "") if hand.turn_seat is not None else "",
                on_turn_seconds=(now - hand.turn_started_at).total_seconds() if hand.turn_started_at else None,
                last_action=(hand.last_type or "").replace("_", " "),
                stuck=hand.turn_deadline is not None and hand.turn_deadline < now - STUCK_AFTER,
            )
        )
    try:
        last_tick = cache.get(LAST_TICK_KEY)
    except OUTAGES:
        last_tick = None
    totals = sockets.counts.totals([("page", page) for page in PAGES])
    return Room(
        tables=tables,
        last_tick_seconds_ago=None if last_tick is None else max(0.0, time.time() - last_tick),
        sockets_open={page: totals[("page", page)] for page in PAGES},
    )
