"""Staff edits of a table's settings (the admin), one transaction under the table's lock.

The game, stakes, seat count and buy-ins shape every hand and every seat: they change only
while nobody is seated and no hand runs (close the table, edit it, reopen it). The clock and
time bank settings are safe at any time: a running turn keeps the deadline it was given, and
the next one reads the new settings. An edit is applied whole or not at all, and writes only
the fields it changes, so it never overwrites what the services wrote meanwhile (the version,
the waiting count, the next hand's seed).
"""

from __future__ import annotations

from collections.abc import Collection

from django.db.models import Field
from django.utils.translation import gettext

from tables.models import Seat, Table
from tables.selectors.hands import running_hand

from .changes import mark_changed
from .errors import TableError
from .locking import lock_table

FIXED_WHILE_PLAYED = (
    "variant",
    "stake_small",
    "stake_big",
    "small_blind_override",
    "seat_count",
    "min_buy_in",
    "max_buy_in",
)


def check_table_edit(*, table_id: int, changed: Collection[str]) -> Table:
    """Lock the table; refuse an edit of what is fixed while the table is played."""
    table = lock_table(table_id)
    fixed = [name for name in FIXED_WHILE_PLAYED if name in changed]
    if fixed and (Seat.objects.filter(table=table).exists() or running_hand(table) is not None):
        raise TableError(
            gettext(
                "Players are seated at this table: its game, stakes, seat count and buy-ins cannot change "
                "now (%(fields)s). Close the table (its players are cashed out after the current hand), "
                "edit it, then reopen it. Nothing was changed."
            )
            % {"fields": ", ".join(_label(name) for name in fixed)}
        )
    return table


def edit_table(*, table_id: int, edited: Table, changed: Collection[str]) -> Table:
    """Apply the admin's edit: the fields in ``changed`` take ``edited``'s values, all or none."""
    table = check_table_edit(table_id=table_id, changed=changed)
    fields = [name for name in changed if name not in ("version", "next_hand_at", "is_active", "closing")]
    if not fields:
        return table
    for name in fields:
        setattr(table, name, getattr(edited, name))
    table.full_clean()
    table.save(update_fields=fields)
    mark_changed(table)
    return table


def _label(name: str) -> str:
    field = Table._meta.get_field(name)
    assert isinstance(field, Field)  # the settings fixed while played are the table's own columns
    return str(field.verbose_name)
