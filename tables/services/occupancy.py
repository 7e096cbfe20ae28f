"""The end of a seat occupancy: its chips go back to the bankroll and the seat is free."""

from __future__ import annotations

from django.utils import timezone

from cashier import services as cashier
from tables.models import Seat, Table

from .waiting_list import offer_free_seats


def cash_out_and_free(table: Table, seat: Seat) -> None:
    """End the seat's occupancy: return its chips to the bankroll and free the seat (the
    caller holds the table lock)."""
    chips = seat.stack + seat.pending_top_up
    occupancy = seat.session
    if chips:
        cashier.cash_out(user=seat.player, table=table, amount=chips, occupancy=occupancy.reference)
    seat.delete()
    occupancy.ended_at = timezone.now()
    occupancy.cashed_out = chips
    occupancy.time_bank_ms_left = seat.time_bank_ms  # kept if they come back (RULES 7.5)
    occupancy.save(update_fields=["ended_at", "cashed_out", "time_bank_ms_left"])
    if table.is_active and not table.closing:
        offer_free_seats(table, timezone.now())  # the first on the waiting list is offered the seat
