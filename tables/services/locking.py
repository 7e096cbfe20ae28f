"""One writer at a time per table: every change locks the table row first."""

from django.utils.translation import gettext

from tables.models import Table

from .errors import TableError


def lock_table(table_id: int) -> Table:
    """Lock the table row for the rest of the transaction (must be inside atomic())."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise TableError(gettext("That table does not exist.")) from None
