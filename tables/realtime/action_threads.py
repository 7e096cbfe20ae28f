"""Where a socket's frames are applied: each table's on one of a few threads of the process.

Channels runs every ``database_sync_to_async`` call of a process on one thread. With a table's
frames there, one table's slow change (a hand's settlement, its rows read again after the
clock dealt) held up every other table's actions in the process, and while that thread waited
on PostgreSQL none of them moved: past about 50 actions a second a process's actions queued
for hundreds of milliseconds (``omaha_action_seconds``) with the CPU not yet full. The
process's tables are spread over ``ACTION_THREADS`` threads, each with its own database
connection (``config.db_threads``): a table's frames still run one after another in the order
they came, so its changes are written and go out in that order, while other tables' run
beside them. The table's row lock and the sequence check still make one writer per table.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from django.conf import settings

from config.db_threads import KeyedDatabaseThreads

T = TypeVar("T")

_threads = KeyedDatabaseThreads("action", lambda: settings.ACTION_THREADS)


def on_action_thread(table_id: int, call: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """``call`` as an awaitable run on the thread of the table's frames."""
    return _threads.run(table_id, call)


def stop() -> None:
    """Stop the threads, each closing its database connections first."""
    _threads.stop()
