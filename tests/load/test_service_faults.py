"""The room outlives the services it stands on (the short version of
``python -m bench.load faults --redis-restarts N --postgres-restarts N``): bots play over real
websockets against the whole stack (2 daphne, a celery worker, beat) while a private Redis is
killed with -9 and restarted empty, and a private PostgreSQL is restarted once with
``pg_ctl -m fast`` and once after kill -9 of its postmaster. Afterwards every hand has
completed, the chips audit is clean, no process logged a traceback or an error, and after
each fault every screen was right within 5 seconds of the service's return."""

import json
import shutil
import subprocess
import sys

import pytest

from ..support.processes import ROOT, process_env

pytestmark = pytest.mark.load


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server to start a private one")
def test_redis_and_postgresql_restarts_during_play(tmp_path):
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.load",
            "--out",
            str(tmp_path),
            "--hand-pause",
            "0.3",
            "faults",
            "--tables",
            "3",
            "--seats",
            "2",
            "--kills",
            "0",
            "--redis-restarts",
            "1",
            "--postgres-restarts",
            "2",
            "--every",
            "4",
            "7",
            "--max-minutes",
            "2",
        ],
        cwd=ROOT,
        env=process_env(),
        capture_output=True,
        text=True,
        timeout=400,
    )
    figures_path = next(tmp_path.glob("faults-*/figures.json"), None)
    assert figures_path is not None, run.stdout[-3000:] + run.stderr[-3000:]
    figures = json.loads(figures_path.read_text())
    assert run.returncode == 0, figures["failures"]
    assert sorted(f["fault"] for f in figures["faults"]) == ["postgres-fast", "postgres-kill9", "redis"]
    assert all(f["caught_up_s"] is not None and f["caught_up_s"] <= 5 for f in figures["faults"]), figures["faults"]
    assert figures["audit"]["ok"], figures["audit"]
    assert not figures["stuck_after_drain"]
    assert figures["tracebacks"] == 0 and not figures["server_errors"], figures["server_errors"][:3]
    assert figures["hands"] >= 1
