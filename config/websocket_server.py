"""The websocket server under daphne (autobahn), made to skip work it throws away.

autobahn's ``WebSocketProtocol._connectionMade`` pretty-prints every connection's settings
(``pprint.pformat`` of some forty attributes) for a debug log line, before the logger decides
that debug lines are off. In a connect storm that is about 5 % of a daphne's CPU (py-spy at 800
tables). Its frames' debug lines do the same on a smaller scale, for every frame in and
out: each colours a function's qualified name and the peer with click (``hltype``,
``hlval``), about 3 % of a daphne's CPU at 100 tables (py-spy, 2026-12-06).
``defer_debug_formatting`` hands autobahn's log calls values that are formatted only when a
log line is written, so a server logging at info and above never formats them.

A text frame a table socket sends for a change (``send_text_frame``) is framed here and goes
to the connection's socket at once when nothing waits before it: through autobahn and
Twisted, each such frame took some twenty Python calls (the message's checks and counters,
its framing, Twisted's buffer) and two system calls more than the send itself (Twisted
registers the connection for writing, writes once the loop comes round, and unregisters
it), about 7 % of a daphne at 100 tables (py-spy, 2026-12-06). Anything unusual (a frame
still waiting in Twisted's buffer, TLS, compression, fragmentation, autobahn's own queue, a
connection closing) takes autobahn's way, unchanged.

A frame a client sends is masked (RFC 6455 5.3), and autobahn makes a masker for each: its
native one allocates two C buffers through cffi and registers a finaliser, about 1.4 % of a
daphne at 100 tables (py-spy, 2026-12-07), for an action's frame of some sixty bytes.
``SmallFrameMasker`` unmasks a frame up to ``SMALL_FRAME_BYTES`` as one exclusive-or of two
integers; a larger one keeps autobahn's (``masker_for``).
"""

from __future__ import annotations

import pprint
import struct
from typing import Any

from autobahn.websocket.protocol import WebSocketProtocol


class LazyPformat:
    """``pprint.pformat(value)``, worked out only when the log line is formatted."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        return pprint.pformat(self.value)

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class LazyCall:
    """``function(value)``, worked out only when the log line is formatted."""

    __slots__ = ("function", "value")

    def __init__(self, function, value: Any) -> None:
        self.function = function
        self.value = value

    def __str__(self) -> str:
        return str(self.function(self.value))

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _deferred(function):
    def deferred(value: Any, *args, **kwargs):
        if args or kwargs:  # a colour or weight asked for: formatted as asked, now
            return function(value, *args, **kwargs)
        return LazyCall(function, value)

    deferred.deferred = function
    return deferred


def defer_debug_formatting() -> None:
    """Point autobahn's websocket protocol at the lazy ``pformat``, ``hltype`` and ``hlval``,
    and at ``masker_for`` for its clients' frames (once; idempotent)."""
    from autobahn.twisted import websocket
    from autobahn.websocket import protocol

    for module in (protocol, websocket):
        for name in ("hltype", "hlval"):
            current = getattr(module, name)
            if not hasattr(current, "deferred"):
                setattr(module, name, _deferred(current))

    # Its log calls only format the result into their lines; ``Timings.__str__``, which must
    # return a string, keeps the real one.
    protocol.pformat = LazyPformat  # type: ignore[assignment]
    if not hasattr(protocol.create_xor_masker, "native"):
        protocol.create_xor_masker = masker_for(protocol.create_xor_masker)  # type: ignore[assignment]
    protocol.Timings.__str__ = lambda self: pprint.pformat(self._timings)  # type: ignore[method-assign]


# A client frame's payload up to this is unmasked by ``SmallFrameMasker``; autobahn's own above.
SMALL_FRAME_BYTES = 4096


class SmallFrameMasker:
    """autobahn's masker interface (``pointer``, ``reset``, ``process``) for a small payload: the
    4-byte key repeated from where the last chunk ended, exclusive-or'd as whole integers."""

    __slots__ = ("_key", "_position")

    def __init__(self, mask: bytes) -> None:
        assert len(mask) == 4
        self._key = bytes(mask)
        self._position = 0

    def pointer(self) -> int:
        return self._position

    def reset(self) -> None:
        self._position = 0

    def process(self, data: bytes) -> bytes:
        length = len(data)
        if not length:
            return bytes(data)
        shift = self._position % 4
        key = (self._key[shift:] + self._key[:shift]) * (length // 4 + 1)
        self._position += length
        masked = int.from_bytes(data, "big") ^ int.from_bytes(key[:length], "big")
        return masked.to_bytes(length, "big")


def masker_for(native):
    """autobahn's ``create_xor_masker`` with ``SmallFrameMasker`` for payloads it covers."""

    def create_xor_masker(mask, length=None):
        if length is not None and length <= SMALL_FRAME_BYTES:
            return SmallFrameMasker(mask)
        return native(mask, length)

    create_xor_masker.native = native
    return create_xor_masker


def text_frame(payload: bytes) -> bytes:
    """An unmasked, unfragmented text frame of ``payload`` (RFC 6455 5.2), as a server sends it."""
    length = len(payload)
    if length < 126:
        return bytes((0x81, length)) + payload
    if length < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, length) + payload
    return struct.pack("!BBQ", 0x81, 127, length) + payload


def _straight_way(protocol) -> bool:
    """Whether a text frame may bypass autobahn and Twisted's buffer: an open, plain connection
    sending nothing else, whose frames autobahn would send whole, unmasked and uncompressed."""
    if not isinstance(protocol, WebSocketProtocol):
        return False
    transport = protocol.transport
    return (
        protocol.state == protocol.STATE_OPEN
        and protocol.send_state == protocol.SEND_STATE_GROUND
        and protocol._perMessageCompress is None
        and not protocol.autoFragmentSize
        and not protocol.maskServerFrames
        and not protocol.send_queue
        and not protocol.trackedTimings
        and not protocol.logOctets
        and not protocol.logFrames
        and getattr(transport, "TLS", True) is False
        and transport.connected
        and not transport.disconnecting
        and not transport._writeDisconnected
        and not transport._tempDataBuffer
        and not transport.dataBuffer
    )


def send_text_frame(protocol, text: str) -> None:
    """``text`` to an open websocket connection as one text frame (daphne's ``serverSend``):
    written to its socket now when nothing waits before it, whatever the kernel does not take
    left in Twisted's buffer behind it; otherwise by autobahn, as daphne sends it."""
    payload = text.encode() if _straight_way(protocol) else None
    if payload is None or 0 < protocol.maxMessagePayloadSize < len(payload):
        protocol.serverSend(text, False)
        return
    frame = text_frame(payload)
    transport = protocol.transport
    try:
        sent = transport.socket.send(frame)
    except OSError:  # the kernel's buffer full, or the connection failed: Twisted's write finds out
        sent = 0
    if sent < len(frame):
        transport.write(frame[sent:])
