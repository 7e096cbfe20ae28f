"""A server told to stop (SIGTERM) says goodbye to its sockets before it goes.

Daphne's own SIGTERM handling stops the reactor at once and drops every connection, which a
browser sees as an abnormal closure. Here SIGTERM first tells every socket of the process to
close with 1001, "going away": each socket finishes the frame it is handling, then closes
(its consumer runs in order, one message at a time). Once they have all closed, or after
``GRACE_SECONDS``, and once the embedded clock (if it runs here) has finished its tick,
daphne's handler stops the server as before. The page reconnects on 1001
(``static/js/connection.js``), to another server behind the proxy or to this one restarted,
and its snapshot shows whatever happened meanwhile.

The handler is installed by the first connection the server takes (daphne installs its own
when the reactor starts, and this one must come after it), and only inside a running daphne.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from config.websocket_server import send_text_frame

from . import embedded_clock
from .socket_guard import TEXT_SENDER
from .socket_recovery import live_sockets

logger = logging.getLogger(__name__)

GRACE_SECONDS = 5.0
_installed = False


def _reactor_running() -> bool:
    reactor = sys.modules.get("twisted.internet.reactor")
    return bool(getattr(reactor, "running", False))


def ensure_installed() -> None:
    global _installed
    if _installed or not _reactor_running():
        return
    _installed = True
    loop = asyncio.get_running_loop()
    stop_server = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum, frame) -> None:
        signal.signal(signal.SIGTERM, stop_server)  # a second SIGTERM stops at once
        loop.call_soon_threadsafe(lambda: loop.create_task(_close_then_stop(stop_server, signum)))

    signal.signal(signal.SIGTERM, on_sigterm)


async def _close_then_stop(stop_server, signum: int) -> None:
    count = len(live_sockets.sockets)
    logger.warning("SIGTERM: closing %d sockets with 1001 (going away), then stopping", count)
    closed = await live_sockets.close_all(timeout=GRACE_SECONDS)
    logger.warning("SIGTERM: %d of %d sockets closed; stopping", closed, count)
    await embedded_clock.stop()
    if callable(stop_server):
        stop_server(signum, None)
    else:
        raise SystemExit(128 + signum)


# RFC 6455 gives these to the endpoint itself; autobahn (under daphne) lets an application
# close only with 1000 or 3000-4999, so they are sent through the connection's protocol.
ENDPOINT_CLOSE_CODES = frozenset({1001, 1008, 1011, 1012, 1013})  # 1008: a refused flood or socket cap


class CloseSocketsOnSigterm:
    """ASGI middleware: install the SIGTERM handler with the first connection, and let the
    sockets close with the endpoint's own codes under daphne."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        ensure_installed()
        if scope["type"] == "websocket":
            protocol = _autobahn_protocol(send)
            if protocol is not None:
                sender = _text_sender(send, protocol)
                if sender is not None:
                    scope = {**scope, TEXT_SENDER: sender}
                send = _closing_with_endpoint_codes(send, protocol)
        return await self.app(scope, receive, send)


def _autobahn_protocol(send):
    """The connection's protocol behind daphne's ``send`` (``partial(server.handle_reply, protocol)``)."""
    arguments = getattr(send, "args", ())
    protocol = arguments[0] if arguments else None
    return protocol if hasattr(protocol, "sendCloseFrame") and hasattr(protocol, "STATE_OPEN") else None


def _text_sender(send, protocol):
    """``send_text(text) -> bool``: a text frame handed straight to the open connection's
    protocol, as daphne's ``handle_reply`` hands a ``websocket.send`` to it (nothing once the
    connection is gone; it answers True, as daphne does), or False when the connection is not
    open yet (the caller sends it the usual way). A table's sockets send a frame per change each:
    the middleware's wrappers of ``send`` (the session's, the handshake's count, the endpoint's
    close codes) have nothing to do with a text frame, and cost as much as the frame's own
    framing. None where ``send`` is not daphne's."""
    server = getattr(getattr(send, "func", None), "__self__", None)
    connections = getattr(server, "connections", None)
    if not isinstance(connections, dict):
        return None

    def send_text(text: str) -> bool:
        connection = connections.get(protocol)
        if connection is None or connection.get("disconnected"):
            return True  # gone: daphne drops it
        if protocol.state != protocol.STATE_OPEN:
            return False
        send_text_frame(protocol, text)
        return True

    return send_text


def _closing_with_endpoint_codes(send, protocol):
    async def sending(message):
        if (
            message.get("type") == "websocket.close"
            and message.get("code") in ENDPOINT_CLOSE_CODES
            and protocol.state == protocol.STATE_OPEN
        ):
            protocol.sendCloseFrame(code=message["code"], isReply=False)
            return
        await send(message)

    return sending
