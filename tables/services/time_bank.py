"""The time bank: extra seconds each seated player may spend once a turn's time runs out.

When the time to act (RULES 6.1) runs out and the player to act has seconds in their bank,
the clock starts the bank instead of timing them out: the turn's deadline moves on by
what is in it, and the screens show a second countdown. Only when the bank is empty too
does RULES 6.2 apply. Whatever part of the bank a turn used is spent when the turn ends
(a click, the timeout, a leaving player's fold: ``turns.record``), and the rest stays with
the seat for later hands. Every ``time_bank_refill_hands`` hands dealt in add
``time_bank_refill_seconds``, up to ``time_bank_cap_seconds``.

These functions run inside the caller's transaction, under the table lock.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from tables.models import Hand, Seat, Table


def start_time_bank(hand: Hand, seat: Seat) -> bool:
    """The turn's time ran out: start the seat's bank if it has one and it has not started yet."""
    if hand.time_bank_started_at is not None or seat.time_bank_ms <= 0 or hand.turn_deadline is None:
        return False
    hand.time_bank_started_at = hand.turn_deadline  # from the deadline, however late the clock ticks
    hand.turn_deadline += timedelta(milliseconds=seat.time_bank_ms)
    hand.save(update_fields=["time_bank_started_at", "turn_deadline"])
    return True


def spend_time_bank(hand: Hand, seats: Iterable[Seat], now: datetime) -> None:
    """The turn ended: take what it used of the bank from the seat that had the turn."""
    started = hand.time_bank_started_at
    if started is None:
        return
    hand.time_bank_started_at = None
    seat = next((seat for seat in seats if seat.number == hand.turn_seat), None)
    if seat is None:
        return
    used_ms = max(0, int((now - started).total_seconds() * 1000))
    seat.time_bank_ms = max(0, seat.time_bank_ms - used_ms)
    seat.save(update_fields=["time_bank_ms"])


def refill_time_banks(table: Table, dealt_in: Iterable[Seat], *, save: bool = True) -> None:
    """Count a hand dealt in for each seat; every ``time_bank_refill_hands`` of them refill its bank
    (``save`` False: on the rows held, for the caller to write ``REFILL_FIELDS``)."""
    if not table.has_time_bank or not table.time_bank_refill_seconds:
        return
    every, cap_ms = max(1, table.time_bank_refill_hands), table.time_bank_cap_seconds * 1000
    seats = list(dealt_in)
    for seat in seats:
        seat.hands_since_refill += 1
        if seat.hands_since_refill >= every:
            seat.hands_since_refill = 0
            seat.time_bank_ms = min(cap_ms, seat.time_bank_ms + table.time_bank_refill_seconds * 1000)
    if save:
        Seat.objects.bulk_update(seats, list(REFILL_FIELDS))


REFILL_FIELDS = ("hands_since_refill", "time_bank_ms")
