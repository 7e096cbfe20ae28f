"""Closing a table from the admin (players are cashed out once the current hand ends) and
opening it again. These are the only ways a table's ``is_active`` changes."""

from django.db import transaction

from tables.models import Seat
from tables.selectors.hands import running_hand

from .changes import mark_changed
from .locking import lock_table
from .occupancy import cash_out_and_free


def close_table(*, table_id: int) -> bool:
    """Close now if no hand is running (True), else after the hand (False)."""
    with transaction.atomic():
        table = lock_table(table_id)
        if running_hand(table) is not None:
            table.closing = True
            mark_changed(table)
            return False
        for seat in (
            Seat.objects.select_for_update(of=("self",)).select_related("session", "player").filter(table=table)
        ):
            cash_out_and_free(table, seat)
        table.is_active = False
        table.closing = False
        mark_changed(table, lobby_list=True)
        return True


def reopen_table(*, table_id: int) -> bool:
    """Open a closed table to players again. Returns False if it was open already."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.is_active:
            return False
        table.is_active = True
        mark_changed(table, lobby_list=True)
        return True
