"""The project's wiring: settings from the environment, deploy checks, the run command."""

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


def _env(**overrides) -> dict:
    """This process's environment without the deployment's variables, plus ``overrides``."""
    deployment = {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "DEBUG", "SECRET_KEY"}
    env = {k: v for k, v in os.environ.items() if k not in deployment}
    env.update(overrides)
    return env


def _python(code: str, **env) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_env(**env), capture_output=True, text=True, check=True
    ).stdout.strip()


SHOW_BACKENDS = (
    "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup();"
    "from django.conf import settings as s;"
    "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], s.CELERY_BROKER_URL)"
)


def test_embedded_default_needs_no_server():
    engine, layer, broker = _python(SHOW_BACKENDS, SECRET_KEY=PRODUCTION_SECRET_KEY).split()
    assert engine == "django.db.backends.sqlite3"
    assert layer == "channels.layers.InMemoryChannelLayer"
    assert broker == "memory://"


def test_production_settings_use_postgresql_and_redis():
    out = _python(
        SHOW_BACKENDS,
        DATABASE_URL="postgres://u@db:5432/poker",
        REDIS_URL="redis://cache:6379/0",
        SECRET_KEY=PRODUCTION_SECRET_KEY,
    )
    assert out.split() == [
        "django.db.backends.postgresql",
        "channels_redis.core.RedisChannelLayer",
        "redis://cache:6379/0",
    ]


def test_check_deploy_is_clean_with_production_variables():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_env(
            DEBUG="0",
            SECRET_KEY=PRODUCTION_SECRET_KEY,
            ALLOWED_HOSTS="poker.example.com",
            CSRF_TRUSTED_ORIGINS="https://poker.example.com",
            DATABASE_URL="postgres://postgres@127.0.0.1:5432/poker",
        ),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_run_command_serves_the_home_page(tmp_path):
    port = _free_port()
    log = (tmp_path / "run.log").open("w")
    server = subprocess.Popen(
        ["bash", "scripts/run"],
        cwd=ROOT,
        env=_env(PORT=str(port)),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 180
        body = b""
        while time.monotonic() < deadline:
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "run.log").read_text()
                time.sleep(0.5)
        assert b"Lobby" in body, (tmp_path / "run.log").read_text()
        assert b"Pot Limit 1/2" in body and b"Limit 10/20" in body
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)
