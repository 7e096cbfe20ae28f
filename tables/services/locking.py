"""One writer at a time per table: every change locks the table row first."""

from django.db import transaction

from tables import notify
from tables.models import Hand, Table

from .errors import TableError


def lock_table(table_id: int) -> Table:
    """Lock the table row for the rest of the transaction (must be inside atomic())."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise TableError("That table does not exist.") from None


def running_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, state=Hand.State.RUNNING).first()


def mark_changed(table: Table) -> None:
    """Bump the table's version and tell the screens once the transaction commits."""
    table.version += 1
    table.save(update_fields=["version", "next_hand_at", "is_active", "closing"])
    table_id, version = table.pk, table.version
    transaction.on_commit(lambda: notify.table_changed(table_id, version))
