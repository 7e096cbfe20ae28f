"""The lobby's rows: each open table with its game, stakes, seats and average pot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count, IntegerField, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from tables.engine.events import EventType
from tables.models import Hand, HandEvent, Seat, Table, WaitingListEntry

# "Average pot" looks at this many of the table's latest complete hands.
RECENT_HANDS = 20
_SEATS_TAKEN, _WAITING = Count("seats", distinct=True), Count("waiting_list", distinct=True)


@dataclass(frozen=True)
class LobbyRow:
    table: Table
    seats_taken: int
    average_pot: int | None  # None until the table has played a hand
    waiting: int = 0  # players on the waiting list

    @property
    def is_full(self) -> bool:
        return self.seats_taken >= self.table.seat_count


def lobby_rows() -> list[LobbyRow]:
    tables = Table.objects.filter(is_active=True, is_tournament=False).annotate(
        seats_taken=_SEATS_TAKEN, waiting=_WAITING
    )  # RULES 8.2
    return [LobbyRow(table, table.seats_taken, average_pot(table.pk), table.waiting) for table in tables]


def lobby_row(table_id: int) -> LobbyRow | None:
    """One table's row, or None once it is closed (the lobby drops it). Read after every deal and
    every hand's end: on PostgreSQL, in one statement written out (``_row_sql``)."""
    if connection.vendor == "postgresql":
        return _row_in_one_statement(table_id)
    table = (
        Table.objects.filter(pk=table_id, is_active=True, is_tournament=False)
        .annotate(seats_taken=_SEATS_TAKEN, waiting=_WAITING)
        .first()
    )
    return None if table is None else LobbyRow(table, table.seats_taken, average_pot(table.pk), table.waiting)


def _row_in_one_statement(table_id: int) -> LobbyRow | None:
    params = [EventType.POT_AWARDED, Hand.State.COMPLETE, RECENT_HANDS, table_id]
    found: list[Any] = list(Table.objects.raw(_row_sql(), params))  # Tables with the counts as attributes
    if not found:
        return None
    row = found[0]
    average = None if not row.recent_hands else round((row.awarded or 0) / row.recent_hands)
    return LobbyRow(row, row.seats_taken, average, row.waiting)


def _row_sql() -> str:
    """The table's row with what ``lobby_row`` counts: its seats taken, its waiting list, and the
    chips awarded over its latest complete hands (as ``average_pot`` does)."""
    table, seat = Table._meta.db_table, Seat._meta.db_table
    waiting, hand, event = WaitingListEntry._meta.db_table, Hand._meta.db_table, HandEvent._meta.db_table
    return (
        f"SELECT t.*, (SELECT count(*) FROM {seat} s WHERE s.table_id = t.id) AS seats_taken, "
        f"(SELECT count(*) FROM {waiting} w WHERE w.table_id = t.id) AS waiting, r.hands AS recent_hands, "
        f"(SELECT sum((e.payload ->> 'amount')::integer) FROM {event} e WHERE e.hand_id = ANY(r.ids) "
        "AND e.type = %s) AS awarded "
        f"FROM {table} t, LATERAL (SELECT count(*) AS hands, array_agg(h.id) AS ids FROM (SELECT id FROM {hand} h "
        "WHERE h.table_id = t.id AND h.state = %s ORDER BY h.number DESC LIMIT %s) h) r "
        "WHERE t.id = %s AND t.is_active AND NOT t.is_tournament"
    )


def average_pot(table_id: int) -> int | None:
    """Chips awarded per hand (every pot of a hand together) over the latest complete hands."""
    recent = list(
        Hand.objects.filter(table_id=table_id, state=Hand.State.COMPLETE)
        .order_by("-number")
        .values_list("pk", flat=True)[:RECENT_HANDS]
    )
    if not recent:
        return None
    awarded = HandEvent.objects.filter(hand_id__in=recent, type=EventType.POT_AWARDED).aggregate(
        total=Sum(Cast(KT("payload__amount"), IntegerField()))
    )["total"]
    return round((awarded or 0) / len(recent))
