"""After a table changes, whoever listens hears of it once the transaction commits.

Every service that changes a table calls ``mark_changed``: the table's version goes up, and
on commit each subscribed listener gets a ``TableChange``. The notify layer subscribes when
the app starts (``tables.apps``) and renders and pushes the screens; services never import
notify or presentation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from tables.models import Table
from tables.selectors.table_state import TableState


@dataclass(frozen=True)
class TableChange:
    """``held``: builds the table's new state from rows the writer holds (None: read it again).
    ``lobby``: the table's line in the lobby may have changed; ``lobby_list``: the set of
    open tables did (the table opened or closed). ``next_hand_at``: when a cash table's next
    hand is due (set when a hand ends; the clock deals it then, or the process playing the
    table does: ``tables.realtime.owner_deals``)."""

    table_id: int
    version: int
    held: Callable[[], TableState] | None = None
    lobby: bool = True
    lobby_list: bool = False
    next_hand_at: datetime | None = None


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
    next_hand_at = None if table.is_tournament else table.next_hand_at  # a tournament's deals wait for its clock
    change = TableChange(table.pk, table.version, held, lobby, lobby_list, next_hand_at)
    transaction.on_commit(lambda: _announce(change))


def _announce(change: TableChange) -> None:
    for listener in _listeners:
        listener(change)
