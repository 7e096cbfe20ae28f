"""Taking, leaving and managing a seat. Each function is one locked transaction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext

from cashier import services as cashier
from cashier.selectors import request_used
from config.numbers import chips
from tables.engine import Action, ActionKind
from tables.models import Seat, SeatSession, Table
from tables.selectors.allowance import protected_all_ins_since
from tables.selectors.coming_back import ComingBack, coming_back
from tables.selectors.hands import dealt_into, running_hand

from .changes import mark_changed
from .contributions import ensure_next_seed
from .errors import RepeatedRequest, TableError
from .locking import lock_table
from .occupancy import cash_out_and_free
from .turns import announce, current_turn, do_action
from .waiting_list import seat_taken_by, seats_free_for

if TYPE_CHECKING:
    from accounts.models import User

State = Seat.State


def _seat_of(table: Table, user: User) -> Seat:
    seat = (
        Seat.objects.select_for_update(of=("self",)).select_related("session").filter(table=table, player=user).first()
    )
    if seat is None:
        raise TableError(gettext("You have no seat at this table."))
    return seat


def _refuse_at_tournament_table(table: Table) -> None:
    """RULES 8.2: no buy-in, top-up, leaving or sitting out by choice at a tournament's table."""
    if table.is_tournament:
        raise TableError(gettext("This is a tournament table: its tournament seats the players and keeps the chips."))


def _check_amount(amount: object) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise TableError(gettext("Enter a whole, positive number of chips."))
    return amount


def take_seat(
    *, user: User, table_id: int, seat_number: int, buy_in: int, post_big_blind_now: bool, request_id: str
) -> Seat:
    """Sit down with a buy-in from the bankroll (RULES 7.3); choose to post a big blind now or wait (RULES 2.7).

    The buy-in pays for a new seat occupancy and nothing else. ``request_id``: the nonce of
    the form's server-made request id; the ledger lets a request pay for one movement only,
    so the same request again is refused, also after the player has left."""
    with transaction.atomic():
        table = lock_table(table_id)
        _refuse_at_tournament_table(table)
        if request_used(user=user, request_id=request_id):
            raise RepeatedRequest(gettext("That request was already made."))
        if not table.is_active or table.closing:
            raise TableError(gettext("This table is closed."))
        if Seat.objects.filter(table=table, player=user).exists():
            raise TableError(gettext("You already have a seat at this table."))
        if (
            isinstance(seat_number, bool)
            or not isinstance(seat_number, int)
            or not 1 <= seat_number <= table.seat_count
        ):
            raise TableError(gettext("Seats at this table are numbered 1 to %(count)s.") % {"count": table.seat_count})
        if Seat.objects.filter(table=table, number=seat_number).exists():
            raise TableError(gettext("Seat %(number)s is taken.") % {"number": seat_number})
        if seats_free_for(table, user, timezone.now()) <= 0:
            raise TableError(gettext("The free seat is offered to the next player on the waiting list."))
        buy_in = _check_amount(buy_in)
        back = coming_back(player_id=user.pk, table_id=table.pk, now=timezone.now())
        _check_buy_in(table, buy_in, back)
        ensure_next_seed(table)  # published before the table's first hand can be dealt
        occupancy = SeatSession.objects.create(table=table, seat_number=seat_number, player=user, buy_in=buy_in)
        cashier.buy_in(user=user, table=table, amount=buy_in, occupancy=occupancy.reference, request_id=request_id)
        seat = Seat.objects.create(
            table=table,
            number=seat_number,
            player=user,
            session=occupancy,
            stack=buy_in,
            state=State.WAITING_FOR_BIG_BLIND,
            posts_big_blind_now=bool(post_big_blind_now),
            time_bank_ms=table.initial_time_bank_ms if back is None or back.time_bank_ms is None else back.time_bank_ms,
            protected_all_ins_at=[moment.isoformat() for moment in protected_all_ins_since(user.pk, timezone.now())],
        )
        seat_taken_by(table, user)
        mark_changed(table)
    return seat


def _check_buy_in(table: Table, buy_in: int, back: ComingBack | None) -> None:
    """RULES 7.3, and 7.5: coming back within the room's window, at least the stack left with,
    even above the table maximum."""
    if back is not None and back.stack > table.min_buy_in:
        if not back.stack <= buy_in <= max(back.stack, table.max_buy_in):
            raise TableError(
                gettext(
                    "You left this table with %(stack)s chips a short while ago: until %(time)s you sit down "
                    "again with at least that many (up to %(high)s)."
                )
                % {
                    "stack": chips(back.stack),
                    "time": formats.time_format(timezone.localtime(back.until), "TIME_FORMAT"),
                    "high": chips(max(back.stack, table.max_buy_in)),
                }
            )
        return
    if not table.min_buy_in <= buy_in <= table.max_buy_in:
        raise TableError(
            gettext("The buy-in here is %(low)s to %(high)s chips.")
            % {"low": chips(table.min_buy_in), "high": chips(table.max_buy_in)}
        )


def sit_out(*, user: User, table_id: int) -> Seat:
    """Stop being dealt in; during a hand the player's current hand plays on and the sit-out waits."""
    with transaction.atomic():
        table = lock_table(table_id)
        _refuse_at_tournament_table(table)
        seat = _seat_of(table, user)
        if seat.state == State.LEAVING:
            raise TableError(gettext("You are leaving this table after the hand."))
        if seat.state == State.SITTING_OUT:
            raise TableError(gettext("You are already sitting out."))
        if seat.pending_sit_out:
            raise TableError(gettext("You will sit out when this hand ends."))
        if dealt_into(running_hand(table), seat):
            seat.pending_sit_out = True
        else:
            seat.state = State.SITTING_OUT
            seat.sat_out_at = timezone.now()
        seat.save(update_fields=["state", "pending_sit_out", "sat_out_at"])
        mark_changed(table)
    return seat


def sit_in(*, user: User, table_id: int, post_big_blind_now: bool) -> Seat:
    """Come back from sitting out: wait for the big blind or post one now (RULES 2.7)."""
    with transaction.atomic():
        table = lock_table(table_id)
        seat = _seat_of(table, user)
        if seat.pending_sit_out:
            seat.pending_sit_out = False  # changed their mind before the hand ended
        elif seat.state != State.SITTING_OUT:
            raise TableError(gettext("You are not sitting out."))
        elif seat.stack == 0:
            raise TableError(gettext("Top up before you come back: you have no chips at this table."))
        elif table.is_tournament:
            seat.state = State.PLAYING  # back from away: dealt in as before (RULES 8.5)
        else:
            seat.state = State.WAITING_FOR_BIG_BLIND
            seat.posts_big_blind_now = bool(post_big_blind_now)
            seat.sat_out_at = None
        seat.save(update_fields=["state", "pending_sit_out", "posts_big_blind_now", "sat_out_at"])
        mark_changed(table)
    return seat


def top_up(*, user: User, table_id: int, amount: int, request_id: str) -> Seat:
    """Add chips up to the table maximum. Between hands only (RULES 3.8): asked mid-hand,
    the chips leave the bankroll now and reach the stack when the hand ends.

    The chips pay for this seat occupancy and this request (``request_id``, made by the
    server for the form): the same request again moves nothing; with another amount it is
    refused."""
    with transaction.atomic():
        table = lock_table(table_id)
        _refuse_at_tournament_table(table)
        seat = _seat_of(table, user)
        if request_used(user=user, request_id=request_id):
            raise RepeatedRequest(gettext("That top-up was already made."))
        amount = _check_amount(amount)
        if seat.state == State.LEAVING:
            raise TableError(gettext("You are leaving this table after the hand."))
        room = table.max_buy_in - seat.stack - seat.pending_top_up
        if amount > room:
            raise TableError(
                gettext("You may add at most %(room)s chips (table maximum %(maximum)s).")
                % {"room": chips(max(room, 0)), "maximum": chips(table.max_buy_in)}
            )
        moved = cashier.top_up(
            user=user, table=table, amount=amount, occupancy=seat.session.reference, request_id=request_id
        )
        if moved.replayed:
            raise RepeatedRequest(gettext("That top-up was already made."))
        if dealt_into(running_hand(table), seat):
            seat.pending_top_up += amount
        else:
            seat.stack += amount
        seat.save(update_fields=["stack", "pending_top_up"])
        mark_changed(table)
    return seat


def leave(*, user: User, table_id: int) -> Seat | None:
    """Stand up and cash out. In a hand, the hand is folded when its turn comes
    (at once if it is the player's turn) and the chips are cashed out when it ends."""
    with transaction.atomic():
        table = lock_table(table_id)
        _refuse_at_tournament_table(table)
        seat = _seat_of(table, user)
        if seat.state == State.LEAVING:
            raise TableError(gettext("You are already leaving this table after the hand."))
        if dealt_into(running_hand(table), seat):
            seat.state = State.LEAVING
            seat.save(update_fields=["state"])
            turn = current_turn(table, timezone.now())
            assert turn is not None  # the player is dealt into the running hand
            if turn.engine.to_act == seat.number:  # their turn now: folded at once, through the same do_action
                do_action(turn, Action(seat.number, ActionKind.FOLD))
                announce(turn)
            else:
                mark_changed(table)
            return seat
        cash_out_and_free(table, seat)
        mark_changed(table)
    return None
