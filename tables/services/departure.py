"""A player who closes their account, or whom staff ban, leaves every table.

``accounts.closing`` calls ``leave_every_table`` (through ``settings.ACCOUNT_DEPARTURE_STEPS``,
as the accounts app knows nothing of tables) inside its own transaction, so everything here
commits or rolls back with the account's change. Nothing new happens at a table: each seat
goes through ``seating.leave`` and each waiting-list entry through ``leave_waiting_list``.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext

from accounts.closing import DepartureRefused
from tables.models import ChatMessage, Hand, HandEvent, HandPlayer, Seat, WaitingListEntry

from .errors import TableError
from .locking import lock_table
from .seating import leave
from .waiting_list import leave_waiting_list

if TYPE_CHECKING:
    from accounts.models import User


def leave_every_table(*, user: User, closing: bool, placeholder: str | None) -> None:
    """Stand the player up everywhere and take them off every waiting list.

    ``closing`` (the player closes the account): refused while they are dealt into a running
    hand, so every seat is cashed out now and no chip reaches their bankroll later; their
    name in every hand they played and every dealer line becomes ``placeholder``.
    Otherwise (a ban): a seat in a running hand is folded when its turn comes and cashed
    out when the hand ends (``seating.leave``), the others at once.
    """
    table_ids = sorted(
        {
            *Seat.objects.filter(player=user).values_list("table_id", flat=True),
            *WaitingListEntry.objects.filter(player=user).values_list("table_id", flat=True),
        }
    )
    for table_id in table_ids:  # locked in id order, as every multi-table writer does, until the caller commits
        lock_table(table_id)
    if closing:
        playing = HandPlayer.objects.filter(player=user, hand__state=Hand.State.RUNNING).select_related("hand__table")
        hand = playing.first()
        if hand is not None:
            raise DepartureRefused(
                gettext("You are playing a hand at %(table)s: you can close your account when it ends.")
                % {"table": hand.hand.table.name}
            )
    for table_id in table_ids:
        if Seat.objects.filter(table_id=table_id, player=user).exists():
            with suppress(TableError):  # already leaving after the hand
                leave(user=user, table_id=table_id)
        if WaitingListEntry.objects.filter(table_id=table_id, player=user).exists():
            leave_waiting_list(user=user, table_id=table_id)
    if closing and placeholder is not None:
        forget_name(user=user, placeholder=placeholder)


def forget_name(*, user: User, placeholder: str) -> None:
    """Write ``placeholder`` for the player's name in the records that keep names as text: the
    seats of every hand they played (its configuration and its ``hand_started`` event) and the
    dealer's lines that named them. Everything else reads the name from the user row."""
    old_name = user.username
    for hand_id, seat in HandPlayer.objects.filter(player=user).values_list("hand_id", "seat"):
        hand = Hand.objects.only("config").get(pk=hand_id)
        hand.config = _renamed(hand.config, seat, placeholder)
        hand.save(update_fields=["config"])
        for event in HandEvent.objects.filter(hand_id=hand_id, type="hand_started"):
            event.payload = _renamed(event.payload, seat, placeholder)
            event.save(update_fields=["payload"])
    for line in ChatMessage.objects.exclude(kind=ChatMessage.Kind.PLAYER).filter(params__player=old_name):
        line.params = {**line.params, "player": placeholder}
        line.save(update_fields=["params"])


def _renamed(record: dict[str, Any], seat: int, placeholder: str) -> dict[str, Any]:
    seats = [{**entry, "name": placeholder} if entry.get("seat") == seat else entry for entry in record["seats"]]
    return {**record, "seats": seats}
