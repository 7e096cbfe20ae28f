"""Deployment defaults: no production start on the development key, HSTS a year, limits from the environment."""

import subprocess
import sys

import pytest

from ..support.processes import PRODUCTION_SECRET_KEY, ROOT, process_env, python_output

DEVELOPMENT_KEY = "insecure-embedded-default-key-set-SECRET_KEY-in-production"


def _check(**env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=process_env(**env), capture_output=True, text=True
    )


@pytest.mark.parametrize("secret_key", [None, "", DEVELOPMENT_KEY], ids=["unset", "empty", "development-key"])
def test_debug_0_refuses_to_start_without_a_secret_key_of_its_own(secret_key):
    env = {"DEBUG": "0"} if secret_key is None else {"DEBUG": "0", "SECRET_KEY": secret_key}
    result = _check(**env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "Set SECRET_KEY" in result.stderr, result.stderr


def test_debug_0_starts_with_a_secret_key_set():
    result = _check(DEBUG="0", SECRET_KEY=PRODUCTION_SECRET_KEY)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_debug_1_runs_on_the_development_key():
    result = _check(DEBUG="1")
    assert result.returncode == 0, result.stdout + result.stderr


SHOW = (
    "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup();"
    "from django.conf import settings as s; print(getattr(s, {name!r}, None))"
)


def test_hsts_lasts_a_year_in_production():
    assert (
        python_output(SHOW.format(name="SECURE_HSTS_SECONDS"), DEBUG="0", SECRET_KEY=PRODUCTION_SECRET_KEY)
        == "31536000"
    )


def test_hsts_is_still_a_setting():
    shown = python_output(
        SHOW.format(name="SECURE_HSTS_SECONDS"), DEBUG="0", SECRET_KEY=PRODUCTION_SECRET_KEY, SECURE_HSTS_SECONDS="600"
    )
    assert shown == "600"


@pytest.mark.parametrize(
    ("name", "default", "configured"), [("SIGNUP_RATE", "5/h", "7/h"), ("LOGIN_FAILURE_RATE", "20/15m", "50/30m")]
)
def test_the_per_address_limits_come_from_the_environment(name, default, configured):
    assert python_output(SHOW.format(name=name), DEBUG="1") == default
    assert python_output(SHOW.format(name=name), DEBUG="1", **{name: configured}) == configured


def test_a_server_process_hands_the_gil_over_within_a_millisecond():
    """A server process's action threads come back from PostgreSQL several times per action,
    each time asking for the GIL: while the loop works through a burst of changes, Python's
    default (5 ms) made each return wait up to that long. The ASGI application sets the
    process's interval from ``GIL_SWITCH_SECONDS``."""
    show = "import sys, config.asgi; print(sys.getswitchinterval())"
    assert float(python_output(show, DEBUG="1")) == pytest.approx(0.001)
    assert float(python_output(show, DEBUG="1", GIL_SWITCH_SECONDS="0.002")) == pytest.approx(0.002)
