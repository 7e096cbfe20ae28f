"""The project's wiring: settings from the environment, deploy checks, the run command."""

import os
import signal
import subprocess
import sys
import time
import urllib.request

from ..support.processes import PRODUCTION_SECRET_KEY, ROOT, free_port, process_env, python_output

SHOW_BACKENDS = (
    "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup();"
    "from django.conf import settings as s;"
    "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], s.CELERY_BROKER_URL)"
)


def test_embedded_default_needs_no_server():
    engine, layer, broker = python_output(SHOW_BACKENDS, SECRET_KEY=PRODUCTION_SECRET_KEY).split()
    assert engine == "django.db.backends.sqlite3"
    assert layer == "channels.layers.InMemoryChannelLayer"
    assert broker == "memory://"


def test_production_settings_use_postgresql_and_redis():
    out = python_output(
        SHOW_BACKENDS,
        DATABASE_URL="postgres://u@db:5432/poker",
        REDIS_URL="redis://cache:6379/0",
        SECRET_KEY=PRODUCTION_SECRET_KEY,
    )
    assert out.split() == [
        "config.postgresql",  # Django's, with a health check without a round trip
        "config.pubsub_layer.PubSubChannelLayer",
        "redis://cache:6379/0",
    ]


def test_the_pub_sub_layer_keeps_redis_databases_apart():
    """Pub/sub channels ignore the database number: it goes into the channels' prefix, so two
    rooms (or test runs) on one Redis server never hear each other."""
    show = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup();"
        "from django.conf import settings; print(settings.CHANNEL_LAYERS['default']['CONFIG']['prefix'])"
    )
    prefixes = {
        python_output(show, REDIS_URL=f"redis://cache:6379/{db}", SECRET_KEY=PRODUCTION_SECRET_KEY).strip()
        for db in (0, 7)
    }
    assert prefixes == {"asgi0.", "asgi7."}


def test_check_deploy_is_clean_with_production_variables():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=process_env(
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


def test_the_run_command_serves_the_home_page(tmp_path):
    port = free_port()
    log = (tmp_path / "run.log").open("w")
    server = subprocess.Popen(
        ["bash", "scripts/run"],
        cwd=ROOT,
        env=process_env(PORT=str(port)),
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
