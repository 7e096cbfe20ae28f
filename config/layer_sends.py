"""Channel-layer sends from code that runs outside an event loop (the celery worker's tasks).

asgiref's ``async_to_sync``, called in a thread where no event loop runs and none waits for it,
starts a thread and an event loop for that one call, and channels-redis opens a connection to
Redis for each new loop it is used from: in the worker that was a fifth of what a deal cost
(py-spy, 2026-12-06). Here such a send runs on one event loop this process keeps on a thread of
its own, where the layer keeps its connection from one send to the next. A server's worker
thread (daphne's) still hands its sends to the server's loop, as ``async_to_sync`` does.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer


class _OwnLoop:
    """This process's loop for sends from outside any loop, started on first use (and again in
    a forked child, whose copy of the parent's thread does not run)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid: int | None = None

    def get(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid() or self._loop.is_closed():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="channel-layer-sends", daemon=True).start()
                self._loop, self._pid = loop, os.getpid()
            return self._loop


_own_loop = _OwnLoop()


def send(layer, function: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    """``async_to_sync(function)(*args)``; where no server loop waits for this thread and the
    layer is Redis's, run on this process's own loop instead. Waits for its end and raises what
    it raised. (Another layer, the in-memory one, keeps ``async_to_sync``'s loop per call: its
    queues are the consumers' own.)"""
    if not isinstance(layer, RedisChannelLayer | RedisPubSubChannelLayer) or server_loop() is not None:
        return async_to_sync(function)(*args)
    return asyncio.run_coroutine_threadsafe(function(*args), _own_loop.get()).result()


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the server process this thread works for (daphne's, through
    ``sync_to_async``: ``async_to_sync`` runs a coroutine there), or None (the celery worker,
    the embedded clock, a management command)."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)  # as asgiref's async_to_sync finds it
    # A thread keeps the loop of its last call from async code: only a loop still running is ours.
    return loop if loop is not None and loop.is_running() else None
