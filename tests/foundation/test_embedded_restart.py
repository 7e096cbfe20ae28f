"""The embedded default (SQLite, the in-process layer, the clock inside the web process) picks a
hand up where it was: ``scripts/run`` stopped mid-hand and started again resumes the hand, and
the clock applies the turn whose time ran out while the server was down, once."""

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import time
import urllib.request
from datetime import UTC, datetime

from ..support.processes import ROOT, free_port, process_env, python_output

DJANGO = "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; django.setup()\n"

SEAT_TWO_PLAYERS = (
    DJANGO
    + """
import uuid
from accounts.services import register_player
from tables import services
from tables.models import Table
table = Table.objects.create(
    name="Restart", variant=Table.Variant.POT_LIMIT, stake_small=1, stake_big=2, seat_count=6,
    min_buy_in=40, max_buy_in=200, action_seconds=15, countdown_seconds=5,
)
for seat in (1, 2):
    player = register_player(username=f"restart{seat}", password="a-Strong-pass-4821")
    services.take_seat(user=player, table_id=table.pk, seat_number=seat, buy_in=200,
                       post_big_blind_now=False, request_id=uuid.uuid4().hex)
print(table.pk)
"""
)


def run_server(port: int, env: dict, log_path):
    server = subprocess.Popen(
        ["bash", "scripts/run"],
        cwd=ROOT,
        env=process_env(PORT=str(port), **env),
        stdout=log_path.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:  # the first request starts the embedded clock
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
            return server
        except OSError:
            assert server.poll() is None, log_path.read_text()
            time.sleep(0.3)
    raise AssertionError(log_path.read_text())


def stop_server(server) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(30)


def hand_of(table_id: str, database) -> dict | None:
    """The table's latest hand, read straight from the SQLite file (a Django process would take
    seconds to start, longer than a turn lasts)."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        row = db.execute(
            "SELECT id, number, state, turn_deadline FROM tables_hand WHERE table_id = ? ORDER BY number DESC",
            [int(table_id)],
        ).fetchone()
        if row is None:
            return None
        hand_id, number, state, deadline = row
        payloads = db.execute(
            "SELECT payload FROM tables_handevent WHERE hand_id = ? AND type = 'timed_out'", [hand_id]
        ).fetchall()
        hands = db.execute("SELECT count(*) FROM tables_hand WHERE table_id = ?", [int(table_id)]).fetchone()[0]
    return {
        "number": number,
        "state": state,
        "deadline": datetime.fromisoformat(deadline).replace(tzinfo=UTC).timestamp() if deadline else None,
        "timed_out": [json.loads(payload)["seat"] for (payload,) in payloads],
        "hands": hands,
    }


def wait_for(predicate, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"not within {seconds}s: {what}")


def test_a_restarted_run_command_resumes_the_hand_and_its_clock(tmp_path):
    database = tmp_path / "room.sqlite3"
    env = {"DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1", "HAND_PAUSE_SECONDS": "600"}
    log = tmp_path / "run.log"
    port = free_port()
    server = run_server(port, env, log)
    try:
        table_id = python_output(SEAT_TWO_PLAYERS, **env)
        dealt = wait_for(lambda: hand_of(table_id, database), 20, "the clock deals a hand")
        assert dealt["state"] == "running" and not dealt["timed_out"], dealt
    finally:
        stop_server(server)
    stopped = hand_of(table_id, database)
    assert stopped["state"] == "running" and not stopped["timed_out"], stopped
    time.sleep(max(0, stopped["deadline"] - time.time()) + 1)  # their time runs out while no server runs

    server = run_server(port, env, log)
    try:
        # The same hand goes on: the overdue turn is applied, once (then the other player's,
        # if the first timeout was a protected all-in, RULES 6.2).
        done = wait_for(lambda: (h := hand_of(table_id, database))["state"] == "complete" and h, 20, "the hand ends")
        assert done["number"] == dealt["number"] and done["hands"] == 1, done
        assert done["timed_out"] and len(done["timed_out"]) == len(set(done["timed_out"])), done
    finally:
        stop_server(server)
    audit = subprocess.run(
        [".venv/bin/python", "manage.py", "audit_chips"],
        cwd=ROOT,
        env=process_env(**env),
        capture_output=True,
        text=True,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
