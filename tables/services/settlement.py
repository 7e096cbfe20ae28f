"""A hand that ended: its results recorded, and what waited for its end applied."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from operations import metrics
from tables.engine import Hand as EngineHand
from tables.models import Hand, HandPlayer, Seat, Table

from .occupancy import cash_out_and_free
from .owned_tables import bound_cursor, on_postgresql
from .seat_options import auto_top_up


def settle_hand(
    table: Table, hand: Hand, engine: EngineHand, now: datetime, kept: dict[int, Seat] | None = None
) -> bool:
    """Record each player's final stack (the seats' stacks are already synced), then apply
    what waited for the hand to end: leavers cashed out, top-ups added, sit-outs. A table
    closing after the hand closes now. Returns whether it did (the caller holds the lock).
    ``kept``: filled as ``after_hand`` fills it."""
    hand.state = Hand.State.COMPLETE
    metrics.HANDS.labels("completed").inc()
    hand.ended_at = now
    hand.turn_seat = hand.turn_started_at = hand.turn_deadline = None
    record_final_stacks(hand, engine.stacks)
    return after_hand(table, hand, now, kept)


def record_final_stacks(hand: Hand, stacks: dict[int, int]) -> None:
    """Every player's final stack, in one statement (each player dealt in has a seat in the engine)."""
    if not on_postgresql():
        for player in HandPlayer.objects.filter(hand=hand):
            player.final_stack = stacks[player.seat]
            player.save(update_fields=["final_stack"])
        return
    values = ", ".join(["(%s::smallint, %s::bigint)"] * len(stacks))
    params: list[int] = [number for seat in sorted(stacks.items()) for number in seat]
    with bound_cursor() as cursor:
        cursor.execute(
            f"UPDATE {HandPlayer._meta.db_table} AS p SET final_stack = v.stack FROM (VALUES {values}) AS v(seat, stack) "
            "WHERE p.hand_id = %s AND p.seat = v.seat",
            [*params, hand.pk],
        )


# What ``after_hand`` may change on a seat it keeps (the cashier's top-up moves the seat's stack
# only through ``seat.stack`` here).
AFTER_HAND_FIELDS = ("stack", "pending_top_up", "note", "state", "sat_out_at", "pending_sit_out")


def after_hand(table: Table, hand: Hand, now: datetime, kept: dict[int, Seat] | None = None) -> bool:
    """What waited for the hand to end (it ended, or staff cancelled it): leavers cashed out,
    top-ups added, sit-outs; the table closes if it was closing (returns whether it did).
    ``kept``: filled with the seats left at the table, by number, as written (the rows of the
    screens of the hand's end: ``turns.announce``)."""
    for seat in Seat.objects.select_for_update(of=("self",)).select_related("session", "player").filter(table=table):
        if not table.is_tournament and (seat.state == Seat.State.LEAVING or seat.leave_after_hand or table.closing):
            cash_out_and_free(table, seat)
            continue
        if kept is not None:
            kept[seat.number] = seat
        before = [getattr(seat, field) for field in AFTER_HAND_FIELDS]
        seat.stack += seat.pending_top_up
        seat.pending_top_up = 0
        seat.note = ""  # a note is read until the next hand ends
        auto_top_up(table, hand, seat)
        if seat.pending_sit_out or seat.stack == 0:
            seat.state = Seat.State.SITTING_OUT
            seat.sat_out_at = now
            seat.pending_sit_out = False
        changed = [field for field, was in zip(AFTER_HAND_FIELDS, before, strict=True) if getattr(seat, field) != was]
        if changed:  # most seats: nothing waited for the hand's end
            seat.save(update_fields=changed)
    closed = table.closing
    if closed:
        table.is_active, table.closing = False, False
    table.next_hand_at = now + timedelta(seconds=settings.HAND_PAUSE_SECONDS)
    return closed
