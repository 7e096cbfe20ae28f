"""After a table changes, whoever listens hears of it once the transaction commits.

Every service that changes a table calls ``mark_changed``: the table's version goes up, and
on commit each subscribed listener gets a ``TableChange``. The notify layer subscribes when
the app starts (``tables.apps``) and renders and pushes the screens; services never import
notify or presentation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction

from tables.models import Table
from tables.selectors.table_state import TableState


@dataclass(frozen=True)
class TableChange:
    """``held``: builds the table's new state from rows the writer holds (None: read it again).
    ``lobby``: the table's line in the lobby may have changed; ``lobby_list``: the set of
    open tables did (the table opened or closed)."""

    table_id: int
    version: int
    held: Callable[[], TableState] | None = None
    lobby: bool = True
    lobby_list: bool = False


Listener = Callable[[TableChange], None]
_listeners: list[Listener] = []


def subscribe(listener: Listener) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def mark_changed(
    table: Table,
    *,
    held: Callable[[], TableState] | None = None,
    lobby: bool = True,
    lobby_list: bool = False,
    also: Sequence[str] = (),
) -> None:
    """Bump the table's version (inside the caller's transaction, under the table lock) and
    announce the change once it commits; ``also``: more of the table's columns the caller set,
    written in the same statement."""
    table.version += 1
    table.save(update_fields=["version", "next_hand_at", "is_active", "closing", *also])
    announce_written(table, held=held, lobby=lobby, lobby_list=lobby_list)


def announce_written(
    table: Table, *, held: Callable[[], TableState] | None = None, lobby: bool = True, lobby_list: bool = False
) -> None:
    """Announce on commit a change whose new version the caller wrote itself (in the statement
    that wrote the change: ``owned_tables``)."""
    change = TableChange(table.pk, table.version, held, lobby, lobby_list)
    transaction.on_commit(lambda: _announce(change))


def _announce(change: TableChange) -> None:
    for listener in _listeners:
        listener(change)
