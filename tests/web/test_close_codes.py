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
