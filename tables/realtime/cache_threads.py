"""The cache trips of a socket's opening and closing, and of its actions' notes for the clock,
off the event loop.

A socket's count against the caps and a player's presence (``sockets``) are read and written
in the shared cache: a blocking trip to Redis each. Made on the event loop, every one holds up
every socket of the process until Redis answers, and in a connect storm on a busy machine the
loop spent most of its time waiting so (two thirds of its samples at 200 tables: handshakes
then took past their 5 s, were given up and tried again). Here they run on one thread of their
own, in the order they were asked: a socket's count is mirrored closed after it was mirrored
opened, never before.

An action's note for the clock (``on_time``: it arrived before its turn's deadline) and its
clearing once applied are two more trips per action frame, on a thread of their own so that a
connect storm's counts do not hold them up; in order too, so a note is cleared after it was made.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async


class _OrderedThread:
    """One thread, started in the process that first uses it (a forked child starts its own)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.executor: ThreadPoolExecutor | None = None
        self.pid = 0

    def wrap(self, call):
        if self.executor is None or self.pid != os.getpid():
            self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)
            self.pid = os.getpid()
        return sync_to_async(call, thread_sensitive=False, executor=self.executor)


_counts = _OrderedThread("socket-counts")
_notes = _OrderedThread("action-notes")


def on_counts_thread(call):
    """``call`` as an awaitable run on the socket counts' thread (one: in order)."""
    return _counts.wrap(call)


def on_notes_thread(call):
    """``call`` as an awaitable run on the actions' notes thread (one: in order)."""
    return _notes.wrap(call)
