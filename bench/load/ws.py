"""A small RFC 6455 websocket client on asyncio streams (no dependency).

Enough for bots (text frames, ping/pong, close) and, on purpose, able to send
frames a well-behaved client never would (``send_frame`` with any opcode,
unmasked, reserved bits, invalid UTF-8) for the hostile-input run.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import struct

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, BINARY, CLOSE, PING, PONG, CONT = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0
MAX_INCOMING = 8 * 1024 * 1024
SEND_TIMEOUT = 10.0  # seconds a frame may wait for the server to read it


class HandshakeError(Exception):
    def __init__(self, status: str):
        super().__init__(status)
        self.status = status


class ConnectionClosed(Exception):
    def __init__(self, code: int | None, reason: str = "", clean: bool = True):
        super().__init__(f"closed code={code} clean={clean} {reason}")
        self.code, self.reason, self.clean = code, reason, clean


def _mask(data: bytes, key: bytes) -> bytes:
    n = len(data)
    if not n:
        return data
    k = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(k, "big")).to_bytes(n, "big")


def encode_frame(opcode: int, payload: bytes, *, fin: bool = True, mask: bool = True, rsv: int = 0) -> bytes:
    head = bytes([(0x80 if fin else 0) | (rsv & 0x7) << 4 | opcode])
    n = len(payload)
    mbit = 0x80 if mask else 0
    if n < 126:
        head += bytes([mbit | n])
    elif n < 65536:
        head += bytes([mbit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([mbit | 127]) + struct.pack("!Q", n)
    if mask:
        key = os.urandom(4)
        return head + key + _mask(payload, key)
    return head + payload


class WebSocket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.closed = False
        self.close_code: int | None = None

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        path: str,
        *,
        headers: dict[str, str] | None = None,
        timeout: float = 10.0,
        answer_timeout: float | None = None,
    ) -> WebSocket:
        """``timeout``: for the TCP connect (and for the server's answer when ``answer_timeout`` is None)."""
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=MAX_INCOMING), timeout)
        try:
            key = base64.b64encode(os.urandom(16)).decode()
            lines = [
                f"GET {path} HTTP/1.1",
                f"Host: {host}:{port}",
                "Upgrade: websocket",
                "Connection: Upgrade",
                f"Sec-WebSocket-Key: {key}",
                "Sec-WebSocket-Version: 13",
                *(f"{name}: {value}" for name, value in (headers or {}).items()),
            ]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            response = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), answer_timeout or timeout)
            status = response.split(b"\r\n", 1)[0].decode("latin-1")
            if " 101 " not in status + " ":
                raise HandshakeError(status)
            expected = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            if expected.encode() not in response:
                raise HandshakeError("bad Sec-WebSocket-Accept")
        except BaseException:
            writer.transport.abort()
            raise
        return cls(reader, writer)

    async def send_frame(self, opcode: int, payload: bytes, **options) -> None:
        if self.closed:
            raise ConnectionClosed(self.close_code, "send on closed socket")
        self.writer.write(encode_frame(opcode, payload, **options))
        try:
            # A server that stopped reading this socket does not hold the bot (and a run's
            # drain, which sends every bot's last frame in turn) for ever: the socket is given up.
            await asyncio.wait_for(self.writer.drain(), SEND_TIMEOUT)
        except TimeoutError:
            self.abort()
            raise ConnectionClosed(None, "send timed out", clean=False) from None
        except (ConnectionError, OSError) as error:
            self._gone()
            raise ConnectionClosed(None, str(error), clean=False) from None

    async def send_text(self, text: str) -> None:
        await self.send_frame(TEXT, text.encode())

    async def recv(self) -> tuple[int, bytes]:
        """The next data message (TEXT or BINARY, reassembled); answers pings; raises ConnectionClosed."""
        opcode_first, parts = None, []
        while True:
            try:
                b1, b2 = await self.reader.readexactly(2)
                n = b2 & 0x7F
                if n == 126:
                    (n,) = struct.unpack("!H", await self.reader.readexactly(2))
                elif n == 127:
                    (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
                if n > MAX_INCOMING:
                    raise ConnectionClosed(None, "frame too large", clean=False)
                key = await self.reader.readexactly(4) if b2 & 0x80 else None
                payload = await self.reader.readexactly(n)
            except (asyncio.IncompleteReadError, ConnectionError, OSError):
                self._gone()
                raise ConnectionClosed(self.close_code, "eof", clean=False) from None
            if key:
                payload = _mask(payload, key)
            fin, opcode = b1 & 0x80, b1 & 0x0F
            if opcode == CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                self.close_code = code
                if not self.closed:
                    with contextlib.suppress(Exception):
                        self.writer.write(encode_frame(CLOSE, payload[:2]))
                self._gone()
                raise ConnectionClosed(code, payload[2:].decode("utf-8", "replace"), clean=True)
            if opcode == PING:
                self.writer.write(encode_frame(PONG, payload))
                continue
            if opcode == PONG:
                continue
            if opcode in (TEXT, BINARY):
                opcode_first, parts = opcode, [payload]
            elif opcode == CONT and opcode_first is not None:
                parts.append(payload)
            if fin and opcode_first is not None:
                return opcode_first, b"".join(parts)

    async def recv_text(self) -> str:
        _, payload = await self.recv()
        return payload.decode("utf-8", "replace")

    async def close(self, code: int = 1000, timeout: float = 2.0) -> None:
        """Close handshake (bounded in time), then drop the connection."""
        if self.closed:
            return
        try:
            self.writer.write(encode_frame(CLOSE, struct.pack("!H", code)))
            await asyncio.wait_for(self._drain_until_close(), timeout)
        except Exception:
            pass
        self._gone()

    async def _drain_until_close(self) -> None:
        while True:
            try:
                await self.recv()
            except ConnectionClosed:
                return

    def abort(self) -> None:
        """Drop the TCP connection without a close frame (a crashed browser, a lost network)."""
        self._gone()

    def _gone(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.transport.abort()
