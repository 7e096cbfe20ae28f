"""Where a socket reads the screen it shows on connecting or catching up.

Channels runs every ``database_sync_to_async`` call of a server process on one thread, and
its log-in check for a new socket (``AuthMiddleware``) runs there too, before the handshake
is answered. In a reconnect storm hundreds of snapshots queued on that thread would hold up
every later handshake past the client's patience: it gives up, tries again, and its retry
queues behind the snapshots of the sockets that gave up before it. Snapshots are reads (a
returning player's presence is one short write under the table lock), so they run on a few
threads of their own, each with its own database connection (``config.db_threads``):
handshakes on the database thread and the players' frames on theirs
(``action_threads``) do not wait behind them.
"""

from __future__ import annotations

from django.conf import settings

from config.db_threads import DatabaseThreads

_threads = DatabaseThreads("snapshot", lambda: settings.SNAPSHOT_THREADS)


def on_snapshot_thread(read):
    """``read`` as an awaitable run on a snapshot thread."""
    return _threads.run(read)


def stop() -> None:
    """Stop the snapshot threads, each closing its database connections first."""
    _threads.stop()
