"""One writer at a time per table: every change locks the table row first."""

from collections.abc import Callable

from django.db import transaction

from tables import notify
from tables.models import Hand, Table
from tables.presentation.table_state import TableState

from .errors import TableError


def lock_table(table_id: int) -> Table:
    """Lock the table row for the rest of the transaction (must be inside atomic())."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise TableError("That table does not exist.") from None


def running_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, state=Hand.State.RUNNING).first()


def mark_changed(table: Table, screens_from: Callable[[], TableState] | None = None, lobby: bool = True) -> None:
    """Bump the table's version and update the screens once the transaction commits.

    ``screens_from``: builds the table's new state from rows the caller holds (else it is
    read again); ``lobby``: whether the lobby's line for the table may have changed."""
    table.version += 1
    table.save(update_fields=["version", "next_hand_at", "is_active", "closing"])
    table_id = table.pk
    transaction.on_commit(lambda: notify.table_changed(table_id, screens_from() if screens_from else None, lobby=lobby))
