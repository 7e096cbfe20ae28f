"""A few threads of a server process with database connections of their own.

Channels runs every ``database_sync_to_async`` call of a process on one thread. Work that must
not wait behind what runs there, nor hold it up (the screen a socket shows on connecting:
``tables.realtime.snapshot_threads``; the user of a new socket's session:
``accounts.socket_users``), runs on threads of its own instead, each with its own connection;
the players' actions run on threads of their own too, each table's always on the same one
(``KeyedDatabaseThreads``: ``tables.realtime.action_threads``).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from channels.db import database_sync_to_async
from django.db import connections

T = TypeVar("T")


class DatabaseThreads:
    """``size()`` threads (started on first use, again in a forked child), named ``name``."""

    def __init__(self, name: str, size: Callable[[], int]) -> None:
        self.name, self.size = name, size
        self._threads: ThreadPoolExecutor | None = None
        self._pid = 0  # the process that started them: a forked child starts its own
        self._count = 0

    def run(self, call: Callable[..., T]) -> Callable[..., Awaitable[T]]:
        """``call`` as an awaitable run on one of the threads (closing stale connections as
        ``database_sync_to_async`` does)."""
        if self._threads is None or self._pid != os.getpid():
            self._count = self.size()
            self._threads = ThreadPoolExecutor(max_workers=self._count, thread_name_prefix=self.name)
            self._pid = os.getpid()
        return database_sync_to_async(call, thread_sensitive=False, executor=self._threads)

    def stop(self) -> None:
        """Stop the threads, each closing its database connections first (the tests do, so that
        no connection of theirs outlives a test's database)."""
        threads, self._threads = self._threads, None
        if threads is None:
            return
        together = threading.Barrier(self._count, timeout=5)  # one closing job per thread: all wait for all

        def close_this_threads_connections() -> None:
            connections.close_all()
            with contextlib.suppress(threading.BrokenBarrierError):
                together.wait()

        for _ in range(self._count):
            threads.submit(close_this_threads_connections)
        threads.shutdown(wait=True)


class KeyedDatabaseThreads:
    """``size()`` threads (started on first use, again in a forked child), named ``name``, each
    running one call at a time: the calls of one key always run on the same thread, one after
    another in the order they were made, and those of other keys beside them."""

    def __init__(self, name: str, size: Callable[[], int]) -> None:
        self.name, self.size = name, size
        self._threads: list[ThreadPoolExecutor] = []
        self._pid = 0  # the process that started them: a forked child starts its own

    def run(self, key: int, call: Callable[..., T]) -> Callable[..., Awaitable[T]]:
        """``call`` as an awaitable run on ``key``'s thread."""
        if not self._threads or self._pid != os.getpid():
            self._threads = [
                ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{self.name}-{number}")
                for number in range(max(1, self.size()))
            ]
            self._pid = os.getpid()
        executor = self._threads[thread_of(key, len(self._threads))]
        return database_sync_to_async(call, thread_sensitive=False, executor=executor)

    def stop(self) -> None:
        """Stop the threads, each closing its database connections first."""
        threads, self._threads = self._threads, []
        for executor in threads:
            executor.submit(connections.close_all)
            executor.shutdown(wait=True)


_GOLDEN = 0x9E3779B97F4A7C15  # 2**64 / the golden ratio: Fibonacci hashing


def thread_of(key: int, threads: int) -> int:
    """Which of ``threads`` runs ``key``'s calls: the key's bits mixed first. A server process
    serves the tables its proxy sends it, often those with one remainder by the number of
    processes (the bench's router: table id modulo the ports); ``key % threads`` then left some
    threads without a table (with two processes and four threads, each process used two) and
    gave the others twice the tables to queue behind one another."""
    return (((key * _GOLDEN) & 0xFFFFFFFFFFFFFFFF) >> 32) % threads
