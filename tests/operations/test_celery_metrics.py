"""The Celery worker and beat serve their metrics on ports of their own: the worker's prefork
children (where the clock's ticks run) are added up in Prometheus' multiprocess mode."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from tables.models import Hand

from ..support.processes import ROOT, free_port, shared_database_url
from ..support.tables import sit, start_hand

pytestmark = [pytest.mark.usefixtures("needs_postgresql", "needs_redis"), pytest.mark.django_db(transaction=True)]


def _samples(port: int) -> dict[str, float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=3) as response:
        text = response.read().decode()
    totals: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            totals[sample.name] = totals.get(sample.name, 0.0) + sample.value
    return totals


def test_worker_and_beat_serve_their_metrics(make_player, make_table, tmp_path):
    table = make_table(action_seconds=1, countdown_seconds=1)
    ann, ben = make_player("ann"), make_player("ben")
    sit(table, ann, 1)
    sit(table, ben, 2)
    hand = start_hand(table)
    Hand.objects.filter(pk=hand.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    worker_port, beat_port = free_port(), free_port()
    multiproc = tmp_path / "worker-metrics"
    multiproc.mkdir()
    base = {**os.environ, "DATABASE_URL": shared_database_url(), "HAND_PAUSE_SECONDS": "600"}
    processes = []
    for args, env in [
        (["worker", "--concurrency=2", "--loglevel=INFO"],
         {**base, "METRICS_PORT": str(worker_port), "PROMETHEUS_MULTIPROC_DIR": str(multiproc)}),
        (["beat", "--loglevel=INFO", "--schedule", str(tmp_path / "beat-schedule")],
         {**base, "METRICS_PORT": str(beat_port)}),
    ]:  # fmt: skip
        log = (tmp_path / f"{args[0]}.log").open("w")
        processes.append(
            subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", *args],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )
    try:
        deadline = time.monotonic() + 60
        worker = {}
        while time.monotonic() < deadline:
            try:
                worker = _samples(worker_port)
                if worker.get("omaha_clock_ticks_total", 0) >= 2 and worker.get("omaha_timeouts_total", 0) >= 1:
                    break
            except OSError:
                pass
            time.sleep(0.5)
        assert worker.get("omaha_clock_ticks_total", 0) >= 2, (tmp_path / "worker.log").read_text()[-3000:]
        assert worker["omaha_timeouts_total"] >= 1 and worker["omaha_clock_lag_seconds_count"] >= 1
        assert worker["omaha_clock_last_tick_timestamp_seconds"] > time.time() - 30
        beat = _samples(beat_port)
        assert "omaha_clock_ticks_total" in beat  # beat's own registry: it sends the ticks, the worker runs them
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
