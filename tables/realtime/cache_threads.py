"""The cache trips of a socket's opening and closing, off the event loop.

A socket's count against the caps and a player's presence (``sockets``) are read and written
in the shared cache: a blocking trip to Redis each. Made on the event loop, every one holds up
every socket of the process until Redis answers, and in a connect storm on a busy machine the
loop spent most of its time waiting so (two thirds of its samples at 200 tables: handshakes
then took past their 5 s, were given up and tried again). Here they run on one thread of their
own, in the order they were asked: a socket's count is mirrored closed after it was mirrored
opened, never before.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async

_thread: ThreadPoolExecutor | None = None
_thread_pid = 0  # the process that started it: a forked child starts its own


def on_counts_thread(call):
    """``call`` as an awaitable run on the socket counts' thread (one: in order)."""
    global _thread, _thread_pid
    if _thread is None or _thread_pid != os.getpid():
        _thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="socket-counts")
        _thread_pid = os.getpid()
    return sync_to_async(call, thread_sensitive=False, executor=_thread)
