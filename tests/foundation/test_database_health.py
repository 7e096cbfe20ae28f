"""The database backend's health check (config/postgresql): no round trip while the server has
said nothing, and a connection the server ended is still found and replaced."""

from __future__ import annotations

import time
from pathlib import Path

import psycopg
import pytest
from django.db import close_old_connections, connection, transaction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("needs_postgresql")]


def _backend_pid() -> int:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _server_url() -> str:
    settings = connection.settings_dict
    return psycopg.conninfo.make_conninfo(
        host=settings["HOST"] or "", port=settings["PORT"] or "", user=settings["USER"] or "",
        password=settings["PASSWORD"] or "", dbname=settings["NAME"],
    )  # fmt: skip


def test_a_quiet_connection_is_used_without_a_select_1(monkeypatch):
    # A connection of its own: the worker's may be older than CONN_MAX_AGE by now (replaced as
    # obsolete on the first close_old_connections, which is not what is tested here).
    connection.close()
    pid = _backend_pid()
    checks = []
    usable = connection.is_usable
    monkeypatch.setattr(connection, "is_usable", lambda: checks.append(1) or usable())
    for _ in range(3):
        close_old_connections()  # as channels' database_sync_to_async does around each call
        assert _backend_pid() == pid
    assert checks == []


def test_a_connection_the_server_ended_is_replaced():
    pid = _backend_pid()
    with psycopg.connect(_server_url(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    time.sleep(0.2)  # the server's message and the socket's end reach this side
    close_old_connections()
    assert _backend_pid() != pid


def test_the_test_databases_are_cloned_from_a_template_named_by_the_migrations(needs_postgresql, db):
    """tests/support/template_database.py: one migrate per change of the migrations, not one per worker."""
    from django.conf import settings
    from django.db import connection

    from tests.support.template_database import digest

    template = settings.DATABASES["default"]["TEST"]["TEMPLATE"]
    assert template.endswith(f"_template_{digest()}")
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_database WHERE datname = %s", [template])
        assert cursor.fetchone() == (1,)
        cursor.execute("SELECT count(*) FROM django_migrations")
        assert cursor.fetchone()[0] >= len(list((Path(__file__).parents[2]).glob("*/migrations/0*.py")))
