"""Who a socket is for is known without the database (``accounts.socket_users``): a session
seen lately costs a new socket no statement before the consumer decides, so a refused socket
costs the database nothing; and what is kept is forgotten when the session ends. Through the
real middleware stack, with the session's cookie, on PostgreSQL and the shared cache."""

import logging
import socket

import pytest
from asgiref.sync import async_to_sync
from channels.auth import UserLazyObject
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.module_loading import import_string

from accounts.socket_sessions import SessionCheck
from accounts.socket_users import SESSION_CHECKED, CachedUserAuthMiddleware, CachedUserAuthMiddlewareStack, cached_user
from tables.realtime.routing import websocket_urlpatterns
from tables.realtime.socket_guard import POLICY_VIOLATION

from ..support.sockets import logged_in_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("needs_redis")]


def through_the_stack(path: str, session_key: str) -> WebsocketCommunicator:
    cookie = f"{settings.SESSION_COOKIE_NAME}={session_key}".encode()
    communicator = WebsocketCommunicator(
        CachedUserAuthMiddlewareStack(URLRouter(websocket_urlpatterns)), path, headers=[(b"cookie", cookie)]
    )
    communicator.scope["client"] = ("10.77.0.1", 5000)
    return communicator


def opened_once(session_key: str) -> None:
    """A socket of the session, opened and closed (its user read from the database once)."""

    async def scenario():
        socket = through_the_stack("/ws/lobby/", session_key)
        connected, _ = await socket.connect()
        assert connected
        await socket.receive_from(3)
        await socket.disconnect()

    async_to_sync(scenario)()


def test_a_refused_socket_of_a_known_session_costs_the_database_no_statement(heads_up, settings):
    table, alice, _bob = heads_up
    key = logged_in_session(alice).session_key
    opened_once(key)
    settings.WEBSOCKET_MAX_PER_USER = 0  # every socket of a logged-in user is refused: alice's is

    async def refused():
        socket = through_the_stack(f"/ws/tables/{table.pk}/", key)
        connected, _ = await socket.connect()
        assert connected
        assert "Too many open connections" in await socket.receive_from(3)  # known as alice
        assert (await socket.receive_output(3)) == {"type": "websocket.close", "code": POLICY_VIOLATION}

    with CaptureQueriesContext(connection) as counting:
        async_to_sync(refused)()
    assert [query["sql"] for query in counting.captured_queries] == []


def test_a_session_not_seen_yet_reads_its_user_once(heads_up):
    _table, alice, _bob = heads_up
    key = logged_in_session(alice).session_key
    assert cached_user(key) is None
    opened_once(key)
    assert cached_user(key) == alice


def test_the_kept_user_is_forgotten_on_log_out(heads_up, client):
    _table, alice, _bob = heads_up
    client.force_login(alice)
    key = client.session.session_key
    opened_once(key)
    assert cached_user(key) == alice
    client.post(reverse("logout"))
    assert cached_user(key) is None


def test_the_kept_user_is_forgotten_on_a_password_change_or_a_deactivation(heads_up):
    _table, alice, _bob = heads_up
    key = logged_in_session(alice).session_key
    opened_once(key)
    alice.set_password("a new password for alice 42")
    alice.save()
    assert cached_user(key) is None
    other = logged_in_session(alice).session_key  # a session made with the new password
    opened_once(other)
    assert cached_user(other) == alice
    alice.is_active = False
    alice.save()
    assert cached_user(other) is None


def test_the_kept_user_is_not_used_once_the_session_is_gone(heads_up):
    """A session flushed without a log-out (another user logging in on that browser, an
    expiry, staff clearing sessions) is gone from the session cache: the entry is not used."""
    _table, alice, _bob = heads_up
    session = logged_in_session(alice)
    opened_once(session.session_key)
    assert cached_user(session.session_key) == alice
    session.delete()
    assert cached_user(session.session_key) is None


def test_a_new_sockets_user_is_read_off_the_database_thread_when_the_cache_does_not_know_it(heads_up, settings):
    """In a room's start-up storm no session is in the cache yet: the handshakes' reads of their
    users must not queue behind the players' actions on the one database thread. With that
    thread held, a socket of a session the cache does not know is still answered, as its user."""
    import asyncio
    import threading

    from channels.db import database_sync_to_async

    table, alice, _bob = heads_up
    key = logged_in_session(alice).session_key
    assert cached_user(key) is None  # not kept yet: its user comes from the database
    settings.WEBSOCKET_MAX_PER_USER = 0  # refused once known as alice: no snapshot to wait for
    release = threading.Event()

    async def scenario():
        held = asyncio.ensure_future(database_sync_to_async(release.wait)())  # the database thread, busy
        try:
            socket = through_the_stack(f"/ws/tables/{table.pk}/", key)
            connected, _ = await socket.connect(timeout=5)
            assert connected
            assert "Too many open connections" in await socket.receive_from(5)  # known as alice
        finally:
            release.set()
            await held

    async_to_sync(scenario)()
    assert cached_user(key) == alice  # and kept for its next sockets


def handshake(session_key: str):
    """The user the middleware finds for a socket of the session, and what it checked."""
    scope = {"session": import_string(f"{settings.SESSION_ENGINE}.SessionStore")(session_key=session_key),
             "user": UserLazyObject()}  # fmt: skip
    async_to_sync(CachedUserAuthMiddleware(None).resolve_scope)(scope)
    return scope["user"], scope.get(SESSION_CHECKED)


@pytest.mark.parametrize("seen", [False, True], ids=["read from the database", "known from the cache"])
def test_a_sockets_first_frame_goes_on_from_the_check_its_handshake_made(heads_up, seen):
    """The handshake checked the session (Django's check, or one made lately): the first frame
    that changes something asks the cache whether anything changed since, not the database
    again; and a change of the user after the handshake is still seen on that frame."""
    _table, alice, _bob = heads_up
    key = logged_in_session(alice).session_key
    if seen:
        opened_once(key)
    user, checked = handshake(key)
    assert user == alice and checked is not None
    first_frame = SessionCheck(key, alice.pk, checked)
    with CaptureQueriesContext(connection) as counting:
        assert first_frame.current()
    assert counting.captured_queries == []
    without = SessionCheck(key, alice.pk)  # nothing to go on: Django's check on the database
    with CaptureQueriesContext(connection) as counting:
        assert without.current()
    assert counting.captured_queries
    alice.set_password("a-New-strong-pass-77")
    alice.save()
    assert not SessionCheck(key, alice.pk, checked).current()


def test_the_cache_away_is_one_line_in_the_log_not_a_traceback(heads_up, settings, caplog):
    """Redis restarting is an outage, not a bug: a socket's handshake that finds the cache
    away says so in one line and asks the database (the room's logs carry no traceback for it)."""
    _table, alice, _bob = heads_up
    key = logged_in_session(alice).session_key
    with socket.socket() as probe:  # a port nothing listens on: the cache's connections are refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CACHES = {
        **settings.CACHES,
        "default": {**settings.CACHES["default"], "LOCATION": f"redis://127.0.0.1:{port}/0"},
    }
    with caplog.at_level(logging.WARNING, logger="accounts.socket_users"):
        assert cached_user(key) is None
    [record] = [r for r in caplog.records if "the cache did not answer" in r.getMessage()]
    assert record.exc_info is None and "ConnectionError" in record.getMessage()
