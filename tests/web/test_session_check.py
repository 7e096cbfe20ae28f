"""Every frame that changes something checks the socket's session again
(``accounts.socket_sessions.SessionCheck``): after the first, with one trip to the cache and
no statement while nothing changed, and on the database again as soon as anything did. On
PostgreSQL and the shared cache."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.socket_sessions import SessionCheck
from accounts.socket_users import generation_key

from ..support.sockets import logged_in_session

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("needs_redis")]


def checked(user) -> tuple[SessionCheck, str]:
    key = logged_in_session(user).session_key
    check = SessionCheck(key, user.pk)
    assert check.current()  # the first check: on the database
    return check, key


def statements(check: SessionCheck, read: dict | None = None) -> tuple[bool, int]:
    """Whether the session is current, and the statements its check cost (``read``: the
    entries a frame's trip read for it)."""
    with CaptureQueriesContext(connection) as counting:
        current = check.current(read)
    return current, len(counting.captured_queries)


def test_a_later_frame_of_an_unchanged_session_costs_the_database_no_statement(heads_up):
    _table, alice, _bob = heads_up
    check, _key = checked(alice)
    assert statements(check) == (True, 0)
    assert statements(check) == (True, 0)


@pytest.mark.parametrize("how", ["change password", "deactivate"])
def test_a_change_of_the_user_is_seen_on_the_next_frame(heads_up, how):
    _table, alice, _bob = heads_up
    check, _key = checked(alice)
    if how == "change password":
        alice.set_password("a-New-strong-pass-77")
        alice.save()
    else:
        alice.is_active = False  # the session's hash stays the same: only the generation says it
        alice.save()
    current, queries = statements(check)
    assert not current and queries > 0  # read again from the database


def test_a_logged_out_session_is_not_current_on_the_next_frame(heads_up, client):
    _table, alice, _bob = heads_up
    client.force_login(alice)
    key = client.session.session_key
    check = SessionCheck(key, alice.pk)
    assert check.current()
    client.post(reverse("logout"))
    assert not check.current()


def test_a_session_gone_from_the_cache_is_checked_on_the_database(heads_up):
    """A session deleted on the database with no message at all (its cached copy evicted):
    the database is asked, and it is over."""
    _table, alice, _bob = heads_up
    check, key = checked(alice)
    Session.objects.filter(session_key=key).delete()
    cache.clear()
    current, queries = statements(check)
    assert not current and queries > 0


def test_a_cached_session_that_logs_in_someone_else_is_not_current(heads_up):
    _table, alice, bob = heads_up
    check, key = checked(alice)
    cached_key = "django.contrib.sessions.cached_db" + key
    session = cache.get(cached_key)
    assert session is not None
    cache.set(cached_key, {**session, SESSION_KEY: str(bob.pk)})
    assert not check.current()


def test_a_lost_generation_is_a_change(heads_up):
    _table, alice, _bob = heads_up
    check, _key = checked(alice)
    alice.first_name = "Alice"
    alice.save()  # the generation goes up
    assert statements(check) == (True, 1)  # read again (one statement: the user)
    assert statements(check) == (True, 0)
    cache.delete(generation_key(alice.pk))  # evicted
    assert statements(check) == (True, 1)


def test_the_entries_a_frame_read_are_decoded_only_when_their_bytes_change(heads_up, monkeypatch):
    """A frame's budget reads the session's entries in its trip to the cache, undecoded
    (``frame_budgets.take_noting``): the same bytes as the last frame's are the same answer,
    without unpickling the session again; other bytes are decoded and checked."""
    from tables.realtime.frame_budgets import budgets

    _table, alice, bob = heads_up
    check, key = checked(alice)

    def read() -> dict:
        taken, _noted, entries = budgets.take_noting(alice.pk, ("session-check-note", 1.0, 5), check.cache_keys())
        assert taken and entries is not None
        return entries

    serializer = cache._cache._serializer
    decoded = []
    loads = serializer.loads
    monkeypatch.setattr(serializer, "loads", lambda data: decoded.append(data) or loads(data))
    assert statements(check, read()) == (True, 0)
    first = len(decoded)
    assert first >= 1  # the session (and the generation, when the cache holds one), once
    assert statements(check, read()) == (True, 0)
    assert len(decoded) == first  # the same bytes: not decoded again
    cached_key = "django.contrib.sessions.cached_db" + key
    session = cache.get(cached_key)
    cache.set(cached_key, {**session, "seen_lobby": True})  # other bytes, still alice's
    assert statements(check, read()) == (True, 0)
    assert len(decoded) > first
    cache.set(cached_key, {**session, SESSION_KEY: str(bob.pk)})
    current, queries = statements(check, read())
    assert not current and queries > 0  # other bytes, not alice's: read again from the database
