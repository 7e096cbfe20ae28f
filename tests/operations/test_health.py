"""/healthz and /readyz for the load balancer: readiness fails (503) while PostgreSQL or the
channel layer's Redis is stopped, or a migration is not applied, and comes back with them.

The server runs against a private PostgreSQL and a private Redis, each started on a free
loopback port by this test and stopped by PID (``bench.load.services``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request

import psycopg
import pytest

from bench.load.services import PrivatePostgres, PrivateRedis, _pg_tool

from ..support.processes import ROOT, free_port, process_env, stop


def get(url: str) -> tuple[int, dict | str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            body = response.read().decode()
            status = response.status
    except urllib.error.HTTPError as error:
        body, status = error.read().decode(), error.code
    try:
        return status, json.loads(body)
    except ValueError:
        return status, body


def ready(base: str, want: int, timeout: float = 20) -> dict:
    """/readyz until it answers ``want``; returns its checks."""
    deadline = time.monotonic() + timeout
    while True:
        status, body = get(f"{base}/readyz")
        if status == want or time.monotonic() > deadline:
            assert status == want, body
            return body["checks"]
        time.sleep(0.3)


def test_healthz_answers_without_touching_anything(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok\n"


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server to start a private one")
def test_readiness_follows_postgresql_redis_and_the_migrations(tmp_path):
    postgres, redis = PrivatePostgres(tmp_path), PrivateRedis(tmp_path)
    server = None
    try:
        postgres.start()
        redis.start()
        with psycopg.connect(postgres.url("postgres"), autocommit=True) as admin:
            admin.execute("CREATE DATABASE room")
        env = process_env(
            DATABASE_URL=postgres.url("room"), REDIS_URL=redis.url, CACHE_URL=redis.url, DEBUG="1",
            EMBEDDED_CLOCK="0", CONN_MAX_AGE="0",
        )  # fmt: skip
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT, env=env, stdout=(tmp_path / "daphne.log").open("ab"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                assert get(f"{base}/healthz") == (200, "ok\n")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "daphne.log").read_text()
                time.sleep(0.2)

        # An empty database: the migrations are not applied.
        assert ready(base, 503) == {"database": "ok", "migrations": "not applied", "channel_layer": "ok"}
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                       capture_output=True)  # fmt: skip
        assert ready(base, 200) == {"database": "ok", "migrations": "ok", "channel_layer": "ok"}

        redis.kill9()
        checks = ready(base, 503)
        assert checks["channel_layer"].startswith("ConnectionError") and checks["database"] == "ok"
        assert get(f"{base}/healthz")[0] == 200  # up, though not ready
        redis.start()
        ready(base, 200)

        subprocess.run([_pg_tool("pg_ctl"), "stop", "-D", str(postgres.data), "-m", "fast", "-w"],
                       check=True, capture_output=True, **postgres.popen_options())  # fmt: skip
        checks = ready(base, 503)
        assert checks["database"].startswith("OperationalError") and checks["channel_layer"] == "ok"
        postgres.start()
        ready(base, 200)
    finally:
        if server is not None:
            stop(server)
        redis.stop()
        postgres.stop()
