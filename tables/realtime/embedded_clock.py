"""The table clock of the embedded default: no Redis, no separate worker or beat.

Production runs `tables.tasks.tick` from celery beat. Without Redis the same
task runs here, eagerly, once a second as an asyncio task of the server's own
event loop: its broadcasts then reach the in-process channel layer's sockets.
It starts with the first request or websocket the server handles.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.conf import settings

logger = logging.getLogger(__name__)
_clock: asyncio.Task | None = None
_stopping = False


def ensure_started() -> None:
    global _clock
    if not settings.EMBEDDED_CLOCK or (_clock is not None and not _clock.done()):
        return
    _clock = asyncio.get_running_loop().create_task(_run_every_second())


async def _run_every_second() -> None:
    from tables.tasks import tick

    while not _stopping:
        await asyncio.sleep(1)
        if _stopping:
            return
        try:
            # thread_sensitive: the clock shares the one thread that serialises sync ORM work.
            await sync_to_async(tick.apply, thread_sensitive=True)()
        except Exception:
            logger.exception("table clock tick failed")


async def stop() -> None:
    """Let the tick in hand finish, then stop (the server is stopping: a tick cut off in its
    worker thread would wait for this loop forever, and the process with it)."""
    global _stopping
    _stopping = True
    if _clock is not None and not _clock.done() and _clock.get_loop() is asyncio.get_running_loop():
        await asyncio.gather(_clock, return_exceptions=True)


class StartEmbeddedClock:
    """ASGI middleware: make sure the embedded clock runs (a no-op with Redis)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        ensure_started()
        return await self.app(scope, receive, send)
