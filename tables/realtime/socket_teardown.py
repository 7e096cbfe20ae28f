"""A socket's way out, safe from its own cancellation.

Daphne cancels a socket's application that is still running ``application_close_timeout``
seconds after the client went (a handshake that timed out while the server was busy, a
reconnect storm), and cancels it again on every check until it ends. The work of leaving
then runs on a shared resource: channels-redis's pub/sub layer unsubscribes a channel or a
group under one lock per Redis connection, which a few hundred sockets leaving at once queue
on. Cut short there, the layer logs the ``CancelledError`` with a traceback (its ``receive``
cleans up the channel when it is cancelled), leaves the subscription behind, and the socket's
own leaving (its counts, its groups, a player's presence) is never done.

So the leaving runs in tasks the socket's cancellation does not reach: it ends whatever
happens to the socket, once, quietly. The socket's application still ends when daphne
cancels it: only the cleanup outlives it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

from config import shared_awaits

TEARDOWN = "socket teardown (what the service held expires with it)"


def detached(coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task:
    """Run ``coroutine`` to its end, whatever happens to the task that started it. Nobody
    awaits its result: an error is logged (an outage in one line)."""
    return shared_awaits.detached(coroutine, TEARDOWN)


async def to_the_end(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Await ``coroutine``; if the caller is cancelled meanwhile, the cancellation goes on up
    (the socket's application ends) but ``coroutine`` runs to its end all the same."""
    task = shared_awaits.held(coroutine)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        if not task.done():
            shared_awaits.report_when_done(task, TEARDOWN)  # no one awaits it now: its error is reported here
        raise


def end_receiving(receiving: asyncio.Task | None) -> asyncio.Task | None:
    """Cancel the channel layer's pending ``receive`` of a socket that is gone, once, in a task
    that is not cancelled again: the layer's own cleanup (unsubscribing the channel) ends."""
    if receiving is None or receiving.done():
        return None
    return detached(_cancel(receiving))


async def finished(tasks: list[asyncio.Task | None]) -> None:
    """Wait for the cleanups ``tasks`` (the socket's application ends once they are done); a
    cancellation meanwhile goes on up, and they run to their end all the same."""
    running = [task for task in tasks if task is not None]
    if running:
        await asyncio.shield(asyncio.gather(*running, return_exceptions=True))


async def _cancel(task: asyncio.Task) -> None:
    if not task.cancelling():  # cancelled already (a loop shutting down): once is enough
        task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
