"""The real thing: celery worker and beat processes on Redis and PostgreSQL deal a hand and
time a player out, and the other player's websocket shows it (RULES 6.2)."""

import asyncio
import os
import signal
import subprocess
import sys

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections

from tables.models import HandEvent, Seat
from tables.realtime.routing import websocket_urlpatterns

from ..support.processes import ROOT, shared_database_url
from ..support.tables import sit

# Worker and beat are processes of their own: they share the test database and reach the
# test's socket through channels-redis.
pytestmark = [pytest.mark.usefixtures("needs_postgresql", "needs_redis"), pytest.mark.django_db(transaction=True)]


def _start(args, env, log_path):
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", *args],
        cwd=ROOT,
        env=env,
        stdout=log_path.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


async def _watch_until(communicator, needle: str, seconds: float) -> str:
    """Collect frames until one contains `needle` (or time runs out); return all text seen."""
    seen = ""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while needle not in seen and loop.time() < end:
        try:
            seen += await communicator.receive_from(timeout=max(0.1, end - loop.time()))
        except TimeoutError:
            break
    return seen


def test_worker_and_beat_time_out_a_player_and_the_table_sees_it(make_player, make_table, tmp_path, assert_audit_clean):
    table = make_table(action_seconds=1, countdown_seconds=1)
    ann, ben = make_player("ann"), make_player("ben")
    sit(table, ann, 1)
    sit(table, ben, 2)

    env = {**os.environ, "DATABASE_URL": shared_database_url(), "HAND_PAUSE_SECONDS": "600"}
    worker = _start(["worker", "--pool=solo", "--concurrency=1", "--loglevel=INFO"], env, tmp_path / "worker.log")
    beat = _start(
        ["beat", "--loglevel=INFO", "--schedule", str(tmp_path / "beat-schedule")], env, tmp_path / "beat.log"
    )

    async def watch_as_ben():
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tables/{table.pk}/")
        communicator.scope["user"] = ben
        connected, _ = await communicator.connect()
        assert connected
        try:
            return await _watch_until(communicator, "ran out of time", seconds=60)
        finally:
            await communicator.disconnect()
            # The consumer's database thread keeps a connection open: close it before teardown.
            await database_sync_to_async(connections.close_all)()

    try:
        frames = asyncio.run(watch_as_ben())
    finally:
        for process in (worker, beat):
            os.killpg(process.pid, signal.SIGTERM)
        for process in (worker, beat):
            process.wait(20)
    logs = (tmp_path / "worker.log").read_text()[-3000:] + (tmp_path / "beat.log").read_text()[-2000:]
    assert "ann ran out of time" in frames, logs
    # Beat dealt the hand (heads-up: seat 1, the button, acts first), then the clock ran out on seat 1,
    # who had the small blind in: a protected all-in (RULES 6.2), and sat out afterwards.
    timeouts = list(HandEvent.objects.filter(hand__table=table, type="timed_out").values_list("payload", flat=True))
    assert timeouts[0]["seat"] == 1 and timeouts[0]["became"] == "protected_all_in"
    ann_seat = Seat.objects.get(player=ann)
    assert ann_seat.state == Seat.State.SITTING_OUT or ann_seat.pending_sit_out
    assert_audit_clean()
