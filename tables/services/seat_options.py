"""A seated player's standing choices: sit out at the next big blind, leave after this hand,
and auto top-up (back to a chosen stack between hands, from the bankroll, through the cashier).

``set_seat_options`` records the choices; the dealing and settling code apply them:
``sit_out_at_big_blind`` when the next hand is planned, ``auto_top_up`` (and the leave)
when a hand ends, both inside their transaction, under the table lock.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext

from cashier import services as cashier
from cashier.errors import CashierError
from config.numbers import chips
from tables.models import Hand, Seat, Table
from tables.selectors.hands import dealt_into, running_hand

from .changes import mark_changed
from .errors import TableError
from .locking import lock_table
from .occupancy import cash_out_and_free

if TYPE_CHECKING:
    from accounts.models import User


def set_seat_options(
    *, user: User, table_id: int, sit_out_next_big_blind: bool, leave_after_hand: bool, auto_top_up_to: int | None
) -> Seat:
    """``auto_top_up_to``: a stack within the table's buy-in range, or None/0 for off."""
    with transaction.atomic():
        table = lock_table(table_id)
        seat = Seat.objects.select_for_update(of=("self",)).filter(table=table, player=user).first()
        if seat is None:
            raise TableError(gettext("You have no seat at this table."))
        target = auto_top_up_to or 0
        if isinstance(target, bool) or not isinstance(target, int) or target < 0:
            raise TableError(gettext("Enter a whole number of chips for the auto top-up."))
        if target and not table.min_buy_in <= target <= table.max_buy_in:
            raise TableError(
                gettext("Auto top-up goes back to %(low)s to %(high)s chips.")
                % {"low": chips(table.min_buy_in), "high": chips(table.max_buy_in)}
            )
        wanted = (bool(sit_out_next_big_blind), bool(leave_after_hand), target)
        if wanted == (seat.sit_out_next_big_blind, seat.leave_after_hand, seat.auto_top_up_to):
            return seat  # nothing changes: no new version, nothing rendered
        seat.sit_out_next_big_blind, seat.leave_after_hand, seat.auto_top_up_to = wanted
        seat.save(update_fields=["sit_out_next_big_blind", "leave_after_hand", "auto_top_up_to"])
        freed = seat.leave_after_hand and not dealt_into(running_hand(table), seat)
        if freed:
            cash_out_and_free(table, seat)  # no hand of theirs to wait for
        mark_changed(table, lobby=freed)  # the lobby's line shows the seats taken, nothing of these
    return seat


def sit_out_at_big_blind(seat: Seat, now: datetime) -> None:
    """The big blind has come round to a player who chose to sit out then."""
    seat.state = Seat.State.SITTING_OUT
    seat.sat_out_at = now
    seat.sit_out_next_big_blind = False
    seat.save(update_fields=["state", "sat_out_at", "sit_out_next_big_blind"])


def auto_top_up(table: Table, hand: Hand, seat: Seat) -> None:
    """Top the seat back up to its chosen stack, within the table maximum and the bankroll.

    The request id is the server's, one per hand and occupancy, so the movement is made once
    whatever happens (the cashier refuses a second one for the same request). It runs inside
    the settlement of a hand, which it must never fail: the bankroll is locked before it is
    read (a buy-in elsewhere cannot spend it in between), and a top-up the cashier refuses
    anyway is skipped, in a savepoint of its own, with a note on the player's seat."""
    target = min(seat.auto_top_up_to, table.max_buy_in)
    wanted = target - seat.stack
    if not seat.auto_top_up_to or wanted <= 0:
        return
    try:
        with transaction.atomic():
            amount = min(wanted, cashier.locked_bankroll_balance(seat.player))
            if amount <= 0:
                seat.note = Seat.Note.TOP_UP_SKIPPED
                return
            moved = cashier.top_up(
                user=seat.player,
                table=table,
                amount=amount,
                occupancy=seat.session.reference,
                request_id=f"auto-top-up-{hand.pk}-{seat.session_id}",
            )
    except CashierError:
        seat.note = Seat.Note.TOP_UP_SKIPPED
        return
    if not moved.replayed:
        seat.stack += amount
