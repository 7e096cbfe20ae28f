"""Where a socket reads the screen it shows on connecting or catching up.

Channels runs every ``database_sync_to_async`` call of a server process on one thread, and
its log-in check for a new socket (``AuthMiddleware``) runs there too, before the handshake
is answered. In a reconnect storm hundreds of snapshots queued on that thread would hold up
every later handshake past the client's patience: it gives up, tries again, and its retry
queues behind the snapshots of the sockets that gave up before it. Snapshots are reads (a
returning player's presence is one short write under the table lock), so they run on a few
threads of their own, each with its own database connection: handshakes and the players'
actions on the database thread do not wait behind them.
"""

from __future__ import annotations

import contextlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections

_threads: ThreadPoolExecutor | None = None
_threads_pid = 0  # the process that started them: a forked child starts its own


def on_snapshot_thread(read):
    """``read`` as an awaitable run on a snapshot thread (closing stale connections as
    ``database_sync_to_async`` does)."""
    global _threads, _threads_pid
    if _threads is None or _threads_pid != os.getpid():
        _threads = ThreadPoolExecutor(max_workers=settings.SNAPSHOT_THREADS, thread_name_prefix="snapshot")
        _threads_pid = os.getpid()
    return database_sync_to_async(read, thread_sensitive=False, executor=_threads)


def stop() -> None:
    """Stop the snapshot threads, each closing its database connections first (the tests do,
    so that no connection of theirs outlives a test's database)."""
    global _threads
    threads, _threads = _threads, None
    if threads is None:
        return
    count = settings.SNAPSHOT_THREADS
    together = threading.Barrier(count, timeout=5)  # one closing job per thread: all wait for all

    def close_this_threads_connections() -> None:
        connections.close_all()
        with contextlib.suppress(threading.BrokenBarrierError):
            together.wait()

    for _ in range(count):
        threads.submit(close_this_threads_connections)
    threads.shutdown(wait=True)
