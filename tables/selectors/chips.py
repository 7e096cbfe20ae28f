"""Reads of the tables' data that other apps ask for."""

from __future__ import annotations

from collections.abc import Collection

from tables.models import Hand, Seat


def chips_at_tables(user_ids: Collection[int]) -> dict[int, int]:
    """Chips each player has at every table, by user id (settings.CHIP_HOLDINGS): stacks and
    top-ups waiting for a hand to end, counting a seat in a running hand at the stack it
    started the hand with (what is bet is still theirs until the hand is settled)."""
    seats = list(
        Seat.objects.filter(player_id__in=user_ids, table__is_tournament=False).values_list(
            "player_id", "table_id", "number", "stack", "pending_top_up"
        )
    )
    if not seats:
        return {}
    running = {
        hand.table_id: {entry["seat"]: entry["stack"] for entry in hand.config["seats"]}
        for hand in Hand.objects.filter(table_id__in={table for _, table, *_ in seats}, state=Hand.State.RUNNING).only(
            "table_id", "config"
        )
    }
    held: dict[int, int] = {}
    for player_id, table, number, stack, pending in seats:
        held[player_id] = held.get(player_id, 0) + max(stack, running.get(table, {}).get(number, 0)) + pending
    return held
