"""Reads of the tables' data that other apps ask for."""

from __future__ import annotations

from accounts.models import User
from tables.models import Hand, Seat


def chips_at_tables(user: User) -> int:
    """Chips the player has at every table: stacks and top-ups waiting for a hand to end,
    counting a seat in a running hand at the stack it started the hand with (what is bet is
    still theirs until the hand is settled)."""
    seats = list(
        Seat.objects.filter(player=user, table__is_tournament=False).values_list(
            "table_id", "number", "stack", "pending_top_up"
        )
    )
    if not seats:
        return 0
    running = {
        hand.table_id: {entry["seat"]: entry["stack"] for entry in hand.config["seats"]}
        for hand in Hand.objects.filter(table_id__in={table for table, *_ in seats}, state=Hand.State.RUNNING).only(
            "table_id", "config"
        )
    }
    return sum(max(stack, running.get(table, {}).get(number, 0)) + pending for table, number, stack, pending in seats)
