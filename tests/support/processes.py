"""Processes a test starts beside itself (the run command, daphne, celery, a crashing worker):
where the project is, the environment they get, the test database they share."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION_SECRET_KEY = "p" * 20 + "-production-secret-with-enough-entropy-1234567890"


def process_env(**overrides) -> dict:
    """This process's environment without the deployment's variables, plus ``overrides``."""
    deployment = {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "DEBUG", "SECRET_KEY"}
    env = {k: v for k, v in os.environ.items() if k not in deployment}
    env.update(overrides)
    return env


def python_output(code: str, **env) -> str:
    """What ``python -c code`` prints, run in the project with ``process_env(**env)``."""
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=process_env(**env), capture_output=True, text=True, check=True
    ).stdout.strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def shared_database_url() -> str:
    """The PostgreSQL test database as a DATABASE_URL, for a process that shares it."""
    from django.db import connection

    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def serve(port: int, log_path, **settings_env: str):
    """``manage.py runserver`` (daphne, as ``scripts/run`` serves) on the test database and Redis;
    ``settings_env``: more settings from the environment (``WEBSOCKET_MAX_IN_FLIGHT="0"``)."""
    from django.conf import settings

    env = process_env(
        DATABASE_URL=shared_database_url(),
        REDIS_URL=settings.REDIS_URL,
        CACHE_URL=settings.CACHE_URL,
        SECRET_KEY=settings.SECRET_KEY,
        DEBUG="1",
        EMBEDDED_CLOCK="0",  # the test deals and acts itself
        CONN_MAX_AGE="0",  # no connection outlives its request: the test database can be dropped after
        **settings_env,
    )
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log_path.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert server.poll() is None, log_path.read_text()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).close()
            return server
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the server did not answer: {log_path.read_text()}")


def stop(server) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)
