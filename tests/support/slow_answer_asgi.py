"""An ASGI application that answers a websocket's handshake only after ``ANSWER_AFTER_SECONDS``,
as the room's application answers the first sockets of a storm on a slow machine: for a
daphne started as the Procfile starts it (``tests/foundation/test_proxy.py``)."""

import asyncio

ANSWER_AFTER_SECONDS = 6.5  # past daphne's own 5 s


async def application(scope, receive, send):
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        return
    if scope["type"] != "websocket":
        return
    if (await receive())["type"] != "websocket.connect":
        return
    await asyncio.sleep(ANSWER_AFTER_SECONDS)
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": "answered"})
    while (await receive())["type"] != "websocket.disconnect":
        pass
