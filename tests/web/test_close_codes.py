"""Under daphne (autobahn), an application may close a socket only with 1000 or 3000-4999;
the room's refusals close with RFC 6455's endpoint codes all the same
(``tables.realtime.graceful_shutdown.ENDPOINT_CLOSE_CODES``). Through a real server, since the
channels test communicator checks no close code."""

import asyncio
import json

import pytest

from bench.load.ws import ConnectionClosed, WebSocket
from tables.realtime.socket_guard import POLICY_VIOLATION

from ..support.processes import free_port, serve, stop

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_flood_of_frames_is_closed_with_the_policy_violation_code_under_daphne(
    needs_postgresql, needs_redis, make_table, tmp_path
):
    table = make_table()
    port = free_port()
    server = serve(port, tmp_path / "daphne.log")

    async def flood() -> int | None:
        origin = {"Origin": f"http://127.0.0.1:{port}"}
        ws = await WebSocket.connect("127.0.0.1", port, f"/ws/tables/{table.pk}/", headers=origin, timeout=10)
        await ws.recv_text()  # the snapshot
        try:
            for _ in range(40):
                await ws.send_text(json.dumps({"action": "probe"}))
            while True:
                await asyncio.wait_for(ws.recv(), timeout=10)
        except ConnectionClosed as closed:
            return closed.code
        finally:
            ws.abort()

    try:
        assert asyncio.run(flood()) == POLICY_VIOLATION
    finally:
        stop(server)
    assert "invalid close code" not in (tmp_path / "daphne.log").read_text()


def test_a_text_frame_goes_straight_to_daphnes_open_connection():
    """Under daphne a socket's text frames go straight to its connection's protocol, as
    daphne's ``handle_reply`` hands them over: nothing once the connection is gone, and the
    usual way (False) while it is not open yet. The pieces stand for daphne's own: its
    ``send`` is ``partial(server.handle_reply, protocol)``."""
    from functools import partial

    from asgiref.sync import async_to_sync

    from tables.realtime.graceful_shutdown import CloseSocketsOnSigterm
    from tables.realtime.socket_guard import TEXT_SENDER

    class Protocol:
        STATE_CONNECTING, STATE_OPEN = 0, 1
        state = STATE_OPEN

        def __init__(self):
            self.sent = []

        def sendCloseFrame(self, code, isReply):
            raise AssertionError("not closing")

        def serverSend(self, content, binary=False):
            self.sent.append((content, binary))

    class Server:
        def __init__(self):
            self.connections = {}

        async def handle_reply(self, protocol, message):
            raise AssertionError("straight to the protocol")

    server, protocol = Server(), Protocol()
    server.connections[protocol] = {}
    scopes = []

    async def app(scope, receive, send):
        scopes.append(scope)

    async_to_sync(CloseSocketsOnSigterm(app))({"type": "websocket"}, None, partial(server.handle_reply, protocol))
    send_text = scopes[0][TEXT_SENDER]
    assert send_text("<div>1</div>") is True and protocol.sent == [("<div>1</div>", False)]
    protocol.state = Protocol.STATE_CONNECTING
    assert send_text("<div>2</div>") is False  # not open yet: the usual way
    protocol.state = Protocol.STATE_OPEN
    server.connections[protocol] = {"disconnected": 1.0}
    assert send_text("<div>3</div>") is True  # gone: dropped, as daphne drops it
    assert protocol.sent == [("<div>1</div>", False)]
    async_to_sync(CloseSocketsOnSigterm(app))({"type": "websocket"}, None, lambda message: None)
    assert TEXT_SENDER not in scopes[1]  # not daphne's send: none
