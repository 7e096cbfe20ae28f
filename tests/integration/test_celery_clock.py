"""The real thing: celery worker and beat processes on Redis and PostgreSQL time a player out,
and the change reaches the table's channel group (which every websocket of the table listens to)."""

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from tables import services
from tables.models import HandEvent, Seat
from tables.notify import table_group

from ..tables.conftest import sit

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def _start(args, env, log_path):
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", *args], cwd=ROOT, env=env,
        stdout=log_path.open("w"), stderr=subprocess.STDOUT, start_new_session=True,
    )


def test_worker_and_beat_fold_a_player_whose_time_ran_out(make_player, make_table, tmp_path, assert_audit_clean):
    assert settings.REDIS_URL and connection.vendor == "postgresql"
    table = make_table(action_seconds=1, countdown_seconds=1)
    ann, ben = make_player("ann"), make_player("ben")
    sit(table, ann, 1)
    sit(table, ben, 2)
    layer = get_channel_layer()
    channel = asyncio.run(layer.new_channel())
    asyncio.run(layer.group_add(table_group(table.pk), channel))

    db = connection.settings_dict
    env = {**os.environ, "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
           "HAND_PAUSE_SECONDS": "600"}
    worker = _start(["worker", "--pool=solo", "--concurrency=1", "--loglevel=INFO"], env, tmp_path / "worker.log")
    beat = _start(["beat", "--loglevel=INFO", "--schedule", str(tmp_path / "beat-schedule")], env,
                  tmp_path / "beat.log")
    try:
        deadline = time.monotonic() + 60
        timeouts = []
        while time.monotonic() < deadline and not timeouts:
            time.sleep(0.5)
            timeouts = list(HandEvent.objects.filter(hand__table=table, type="timed_out").values_list("payload", flat=True))
        logs = (tmp_path / "worker.log").read_text()[-3000:] + (tmp_path / "beat.log").read_text()[-2000:]
        assert timeouts, logs
        # The beat started the hand (heads-up: seat 1, the button, acts first) and then timed seat 1 out.
        assert timeouts[0]["seat"] == 1 and timeouts[0]["became"] == "protected_all_in"

        async def drain():
            seen = []
            while True:
                try:
                    seen.append(await asyncio.wait_for(layer.receive(channel), timeout=2))
                except asyncio.TimeoutError:
                    return seen

        messages = asyncio.run(drain())
        assert any(m["type"] == "table.changed" and m["table_id"] == table.pk for m in messages), messages
        assert Seat.objects.get(player=ann).state == Seat.State.SITTING_OUT or Seat.objects.get(
            player=ann).pending_sit_out
    finally:
        for process in (worker, beat):
            os.killpg(process.pid, signal.SIGTERM)
        for process in (worker, beat):
            process.wait(20)
    assert_audit_clean()
