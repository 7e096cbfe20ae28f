"""The bots wait for a daphne's answer to the handshake as a page behind the room's proxy does
(``bench.load.bots``): a slow answer is waited for, only a connect that does not go through
fails over."""

import asyncio
import base64
import hashlib

import pytest

from bench.load.bots import ANSWER_TIMEOUT, CONNECT_TIMEOUT
from bench.load.ws import GUID, WebSocket


async def _slow_server(delay: float) -> asyncio.Server:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = (await reader.readuntil(b"\r\n\r\n")).decode()
        key = next(line.split(": ", 1)[1] for line in request.split("\r\n") if line.startswith("Sec-WebSocket-Key"))
        await asyncio.sleep(delay)  # a daphne busy with a storm of handshakes
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        writer.write(
            f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Accept: {accept}\r\n\r\n".encode()
        )
        await writer.drain()

    return await asyncio.start_server(answer, "127.0.0.1", 0)


def test_an_answer_slower_than_the_connect_timeout_is_waited_for():
    async def run() -> None:
        server = await _slow_server(0.6)
        port = server.sockets[0].getsockname()[1]
        async with server:
            with pytest.raises(TimeoutError):  # one timeout for both: the slow answer is given up
                await WebSocket.connect("127.0.0.1", port, "/ws/tables/1/", timeout=0.3)
            ws = await WebSocket.connect("127.0.0.1", port, "/ws/tables/1/", timeout=0.3, answer_timeout=3)
            ws.abort()

    asyncio.run(run())
    assert CONNECT_TIMEOUT < ANSWER_TIMEOUT
