"""The channel layer's and the services' outages at a socket's edges: one line in the log, not
a traceback (``config.outages``).

A socket that cannot open because a service is away is refused (``RefuseWhileAway``, in
``config.asgi``); channels-redis's own cleanups and receive loop, which log a Redis restart
with a traceback, say it in one warning line (``quiet_layer_cleanups``, ``PubSubReceiveOutage``,
installed on import).
"""

from __future__ import annotations

import asyncio
import logging

from config.outages import CHANNEL_LAYER_ERRORS, OUTAGES, describe

logger = logging.getLogger(__name__)


class RefuseWhileAway:
    """ASGI middleware for the websockets: a socket that cannot be opened because a service is
    away (the session and user are read before any consumer runs) is refused in one line of
    the log instead of a traceback, and the page tries again."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        try:
            return await self.app(scope, receive, send)
        except OUTAGES as error:
            logger.warning("websocket %s refused: %s", scope.get("path"), describe(error))
            await send({"type": "websocket.close"})


def quiet_layer_cleanups(loop) -> None:
    """channels-redis cleans a socket's receive backup in a task of its own, whose failure with
    Redis away nobody awaits: asyncio would log it with a traceback. There is nothing to clean
    in a Redis that restarted; any other unretrieved error is reported as before."""
    previous = loop.get_exception_handler()
    if getattr(previous, "quiets_layer_cleanups", False):
        return

    def handler(loop, context) -> None:
        error, task = context.get("exception"), context.get("future")
        coroutine = task.get_coro() if isinstance(task, asyncio.Task) else None
        if isinstance(error, CHANNEL_LAYER_ERRORS) and "_clean_receive_backup" in getattr(
            coroutine, "__qualname__", ""
        ):
            logger.warning("channel layer: a receive backup was not cleaned (%s)", describe(error))
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    handler.quiets_layer_cleanups = True  # type: ignore[attr-defined]
    loop.set_exception_handler(handler)


class PubSubReceiveOutage(logging.Filter):
    """channels-redis's pub/sub layer logs a lost Redis connection in its receive loop with a
    traceback, then tries again each second until Redis is back (redis-py subscribes again on
    reconnect). That is an outage, not a bug: one warning line without the traceback. Any
    other error in that loop is still logged as it was."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if record.levelno >= logging.ERROR and isinstance(error, CHANNEL_LAYER_ERRORS):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg, record.args = "channel layer: receiving stopped (%s); it tries again", (describe(error),)
            record.exc_info = record.exc_text = None
        return True


_pubsub_logger = logging.getLogger("channels_redis.pubsub")
if not any(isinstance(f, PubSubReceiveOutage) for f in _pubsub_logger.filters):
    _pubsub_logger.addFilter(PubSubReceiveOutage())
