"""The lobby's rows: each open table with its game, stakes, seats and average pot."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, IntegerField, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from tables.engine.events import EventType
from tables.models import Hand, HandEvent, Table

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
    """One table's row, or None once it is closed (the lobby drops it)."""
    table = (
        Table.objects.filter(pk=table_id, is_active=True, is_tournament=False)
        .annotate(seats_taken=_SEATS_TAKEN, waiting=_WAITING)
        .first()
    )
    return None if table is None else LobbyRow(table, table.seats_taken, average_pot(table.pk), table.waiting)


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
