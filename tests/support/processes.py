"""Processes a test starts beside itself (the run command, daphne, celery, a crashing worker):
where the project is, the environment they get, the test database they share."""

import os
import socket
import subprocess
import sys
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
