"""A socket's frames stamped with the moment they reached this process, before they wait in
the socket's line (``socket_recovery.RecoveringConsumer`` reads them from its inbox)."""

from __future__ import annotations

import asyncio
import logging

from django.utils import timezone

logger = logging.getLogger(__name__)


async def stamp_arrivals(receive, arrivals: asyncio.Queue, arrives, left) -> None:
    """Hand on what the server receives for the socket, each frame with the moment it arrived:
    read at once, before it waits in this socket's line behind a frame in hand (a click that
    reached the server in time is on time however long it then waits, RULES 6). A failed
    receive is put in the line as its exception, for the socket to raise."""
    try:
        while True:
            message = await receive()
            if message.get("type") == "websocket.receive":
                message = {**message, "arrived_at": timezone.now()}
                try:
                    arrives(message)
                except Exception:  # noting a frame is no reason to lose the socket
                    logger.warning("socket: a frame's arrival was not noted", exc_info=True)
            if message.get("type") == "websocket.disconnect":
                left()
                arrivals.put_nowait(message)
                return
            arrivals.put_nowait(message)
    except Exception as error:  # the socket's receive failed: the socket's loop raises it
        arrivals.put_nowait(error)
