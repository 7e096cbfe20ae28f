"""Staff tools for a live room, each a service with a check step and a do step, each written to
the audit log of staff actions (``StaffAction``) in the same transaction as what it does.

- ``cancel_hand``: a running hand ends as if never dealt: every seat dealt into it gets back
  the stack it had at the deal (the chips bet go back from the pot; the table's escrow holds
  the same chips, so it does not move), the hand is marked cancelled (left out of the
  players' histories, tracker exports and proofs) and what waited for the hand's end applies.
- ``stand_up``: a player is stood up and cashed out, as if they had clicked Leave (in a
  hand, folded when their turn comes and cashed out when it ends).
- ``send_dealer_message``: the dealer tells one table, or every open table, staff's words.
- ``start_maintenance`` / ``end_maintenance``: no new hand is dealt (running hands finish),
  the lobby says when the room reopens.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tables.models import ChatMessage, Hand, HandPlayer, Seat, Table
from tables.selectors.hands import running_hand
from tables.services import TableError, leave
from tables.services.changes import mark_changed
from tables.services.chat import clean_text, dealer_line
from tables.services.errors import refusal_text
from tables.services.locking import lock_table
from tables.services.settlement import after_hand

from . import metrics
from .models import DealerMessage, Maintenance, StaffAction


class StaffToolRefused(Exception):
    """The tool cannot do that (the text says why, for the admin's message)."""


def _check_staff(staff) -> None:
    if not (getattr(staff, "is_staff", False) and staff.is_active):
        raise StaffToolRefused(gettext("Only active staff may do that."))


def _log(staff, kind: str, **fields) -> StaffAction:
    metrics.STAFF_ACTIONS.labels(kind).inc()
    return StaffAction.objects.create(staff=staff, kind=kind, **fields)


# --- Cancel a running hand ------------------------------------------------------------------


def check_cancel_hand(*, staff, hand_id: int) -> tuple[Table, Hand]:
    """Lock the hand's table; the hand, if it is still running."""
    _check_staff(staff)
    table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise StaffToolRefused(gettext("No such hand."))
    table = lock_table(table_id)
    hand = running_hand(table)
    if hand is None or hand.pk != hand_id:
        raise StaffToolRefused(gettext("That hand is not running any more."))
    return table, hand


def do_cancel_hand(*, staff, table: Table, hand: Hand, reason: str, now: datetime) -> StaffAction:
    started_with = {player.seat: player for player in HandPlayer.objects.filter(hand=hand)}
    seats = Seat.objects.select_for_update(of=("self",)).filter(table=table, number__in=started_with)
    for seat in seats:
        dealt = started_with[seat.number]
        if seat.player_id == dealt.player_id:  # a dealt seat stays its player's until the hand ends
            seat.stack = dealt.starting_stack
            seat.save(update_fields=["stack"])
    for player in started_with.values():
        player.final_stack = player.starting_stack
    HandPlayer.objects.bulk_update(started_with.values(), ["final_stack"])
    hand.state = Hand.State.CANCELLED
    hand.ended_at = now
    hand.turn_seat = hand.turn_started_at = hand.turn_deadline = None
    hand.save(update_fields=["state", "ended_at", "turn_seat", "turn_started_at", "turn_deadline"])
    closed = after_hand(table, hand, now)
    mark_changed(table, lobby_list=closed)
    dealer_line(table, ChatMessage.Kind.HAND_CANCELLED, {"number": hand.number}, now)
    metrics.HANDS.labels("cancelled").inc()
    return _log(staff, StaffAction.Kind.CANCEL_HAND, table=table, hand=hand, detail=reason)


def cancel_hand(*, staff, hand_id: int, reason: str = "", now: datetime | None = None) -> StaffAction:
    with transaction.atomic():
        table, hand = check_cancel_hand(staff=staff, hand_id=hand_id)
        return do_cancel_hand(staff=staff, table=table, hand=hand, reason=reason, now=now or timezone.now())


# --- Stand a player up ----------------------------------------------------------------------


def check_stand_up(*, staff, table_id: int, player_id: int):
    _check_staff(staff)
    player = get_user_model().objects.filter(pk=player_id).first()
    if player is None or not Seat.objects.filter(table_id=table_id, player=player).exists():
        raise StaffToolRefused(gettext("That player has no seat at that table."))
    return player


def stand_up(*, staff, table_id: int, player_id: int, reason: str = "") -> StaffAction:
    """The player's Leave, done for them: cashed out now, or when the running hand ends."""
    with transaction.atomic():
        player = check_stand_up(staff=staff, table_id=table_id, player_id=player_id)
        try:
            leave(user=player, table_id=table_id)
        except TableError as refusal:  # already leaving: the Leave's own refusal
            raise StaffToolRefused(refusal_text(refusal)) from None
        return _log(staff, StaffAction.Kind.STAND_UP, table_id=table_id, player=player, detail=reason)


# --- Dealer message ----------------------------------------------------------------------------


def check_dealer_message(*, staff, text: str, table_id: int | None) -> tuple[str, list[Table]]:
    _check_staff(staff)
    text = clean_text(text if isinstance(text, str) else "")
    if not text:
        raise StaffToolRefused(gettext("Type the message first."))
    if len(text) > 300:
        raise StaffToolRefused(gettext("A dealer message is at most 300 characters."))
    tables = Table.objects.filter(is_active=True)
    if table_id is not None:
        tables = tables.filter(pk=table_id)
    found = list(tables.order_by("pk"))
    if not found:
        raise StaffToolRefused(gettext("No open table to send it to."))
    return text, found


def send_dealer_message(*, staff, text: str, table_id: int | None = None) -> DealerMessage:
    """The dealer says ``text`` at one table (or every open table), in every reader's chat."""
    now = timezone.now()
    with transaction.atomic():
        text, tables = check_dealer_message(staff=staff, text=text, table_id=table_id)
        for table in tables:
            dealer_line(table, ChatMessage.Kind.STAFF, {"text": text}, now)
        _log(staff, StaffAction.Kind.DEALER_MESSAGE, table_id=table_id, detail=text)
        return DealerMessage.objects.create(staff=staff, table_id=table_id, text=text)


# --- Maintenance ----------------------------------------------------------------------------------


def start_maintenance(*, staff, reopens_at: datetime) -> Maintenance:
    """No new hand from now (running hands finish); the lobby says when the room reopens."""
    _check_staff(staff)
    if reopens_at <= timezone.now():
        raise StaffToolRefused(gettext("The room must reopen in the future."))
    with transaction.atomic():
        if Maintenance.objects.select_for_update().filter(ended_at=None).exists():
            raise StaffToolRefused(gettext("The room is already in maintenance."))
        window = Maintenance.objects.create(reopens_at=reopens_at, started_by=staff)
        _log(staff, StaffAction.Kind.MAINTENANCE_START, detail=f"reopens at {reopens_at:%Y-%m-%d %H:%M %Z}")
    return window


def end_maintenance(*, staff) -> Maintenance:
    """Hands are dealt again from the clock's next tick."""
    _check_staff(staff)
    with transaction.atomic():
        window = Maintenance.objects.select_for_update().filter(ended_at=None).first()
        if window is None:
            raise StaffToolRefused(gettext("The room is not in maintenance."))
        window.ended_at = timezone.now()
        window.save(update_fields=["ended_at"])
        _log(staff, StaffAction.Kind.MAINTENANCE_END)
    return window
