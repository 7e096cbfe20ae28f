"""The short CI version of the load/soak/fault/hostile harness (bench/load): a real stack
(2 daphne processes, a celery worker, celery beat) on the pytest database and Redis, bots
over real websockets.

- soak with faults: a few tables, a hundred hands with silent bots (timeouts),
  disconnects and double submits, while a daphne process and the worker are each
  kill -9'ed once and restarted; afterwards every hand has finished and the chips
  audit is clean;
- hostile: a thousand malformed or hostile frames get an error reply or a clean close,
  the server logs no error, and nothing at the table or in the ledger changes.
"""

import os

import pytest
from django.conf import settings

from bench.load import runs
from bench.load.stack import Stack, bench_env
from tables.models import TimeoutRecord

from ..support.processes import shared_database_url

pytestmark = [pytest.mark.load, pytest.mark.django_db(transaction=True)]

# Enough hands that both kills land in the middle of play (one every 5-15 s) and the run
# outlasts them: the benchmark (python -m bench.load soak/faults) plays the big sizes.
HANDS = int(os.environ.get("LOAD_CI_HANDS", 100))


@pytest.fixture
def stack(needs_postgresql, needs_redis, tmp_path):
    """The stack's processes share the test database and Redis."""
    env = bench_env(
        database_url=shared_database_url(),
        redis_url=settings.REDIS_URL,
        extra={"SECRET_KEY": settings.SECRET_KEY, "HAND_PAUSE_SECONDS": "0.3", "LOG_LEVEL": "WARNING"},
    )
    with Stack(env=env, log_dir=tmp_path / "stack", web=2, worker_concurrency=1) as running:
        yield running


def _log(message):
    print(message, flush=True)


def test_soak_with_two_kill9_faults_then_hostile_frames(stack, assert_audit_clean):
    figures = runs.run_play(
        stack,
        tables=int(os.environ.get("LOAD_CI_TABLES", 8)),
        seats=2,
        profile=runs.CHAOS,
        # The hands are the target; the time is only a bound against a stuck run, generous so
        # that a slow or shared machine plays them all rather than fails on speed.
        duration=600,
        hands=HANDS,
        kills=2,
        kill_every=(5.0, 15.0),
        kill_targets=["web0", "worker"],
        drain_timeout=45,
        log=_log,
    )
    _log(f"soak: {figures}")
    assert len(figures["faults"]) == 2, figures["faults"]
    assert {f["fault"] for f in figures["faults"]} == {"web0", "worker"}
    assert figures["audit"]["ok"], figures["audit"]
    assert not figures["stuck_after_drain"], figures["stuck_after_drain"]
    assert not figures["server_errors"], figures["server_errors"][:3]
    assert figures["hands"] >= HANDS, figures
    assert figures["silent_turns"] and figures["double_submits"] and figures["disconnects"], figures
    assert figures["latency_samples"] > 0
    # Bots keep playing: timeouts come from the turns they skip on purpose, not from bots
    # that stopped reading their turn (sequences restart with every hand).
    timeouts = TimeoutRecord.objects.count()
    assert timeouts <= 2 * (figures["silent_turns"] + figures["disconnects"]) + 10, (timeouts, figures)
    assert figures["actions_sent"] >= 2 * figures["hands"], figures

    hostile = runs.run_hostile_frames(stack, frames=1000, log=_log)
    _log(f"hostile: {hostile}")
    assert hostile["frames"] == 1000
    assert not hostile["state_changes"], hostile["state_changes"]
    assert not hostile["server_errors"], hostile["server_errors"][:3]
    assert not hostile["unexpected"], hostile["unexpected"]
    assert hostile["outcomes"].get("error", 0) > 800, hostile["outcomes"]
    assert_audit_clean()
