"""The websocket origin check compares the whole origin (scheme, host and port), as Django's
CSRF check does for a form: a page on another port or scheme of the same host, or on
another host, cannot open a player's sockets with the player's cookies."""

import pytest
from asgiref.sync import async_to_sync
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator

from config.websocket_origin import SameOriginWebsocketValidator

# Channels closes stale database connections around every consumer message: after a test that
# left one open (on the embedded SQLite the in-memory database's stays), that needs access.
pytestmark = pytest.mark.django_db

SITE = "127.0.0.1:8000"


class AcceptEverything(AsyncWebsocketConsumer):
    async def connect(self):
        await self.accept()


def _connects(application, *, origin=None, host=SITE, scheme=None, extra_headers=(), path="/ws/test/") -> bool:
    headers = [(b"host", host.encode())] if host else []
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    headers.extend(extra_headers)

    async def attempt():
        communicator = WebsocketCommunicator(application, path, headers=headers)
        if scheme:
            communicator.scope["scheme"] = scheme
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return connected

    return async_to_sync(attempt)()


guarded = SameOriginWebsocketValidator(AcceptEverything.as_asgi())


def test_the_same_origin_is_accepted():
    assert _connects(guarded, origin=f"http://{SITE}")


def test_another_port_of_the_same_host_is_refused():
    # Channels' AllowedHostsOriginValidator accepted this one: it compared hosts only.
    assert not _connects(guarded, origin="http://127.0.0.1:1")


def test_another_scheme_is_refused():
    assert not _connects(guarded, origin=f"https://{SITE}")  # a ws:// socket from an https page
    assert not _connects(guarded, origin=f"http://{SITE}", scheme="wss")  # a wss:// socket from an http page


def test_a_secure_socket_from_a_secure_page_is_accepted():
    assert _connects(guarded, origin="https://localhost", host="localhost", scheme="wss")


def test_another_host_is_refused():
    assert not _connects(guarded, origin="http://evil.example:8000")
    assert not _connects(guarded, origin="http://localhost:8000")  # also allowed, but not this page's host


def test_a_missing_origin_is_refused():
    assert not _connects(guarded, origin=None)
    assert not _connects(guarded, origin="null")  # sandboxed frames and file:// pages


def test_a_host_outside_allowed_hosts_is_refused_even_when_origin_matches():
    assert not _connects(guarded, origin="http://evil.example", host="evil.example")


def test_a_trusted_origin_is_accepted(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.com", "https://*.tables.example.com"]
    assert _connects(guarded, origin="https://play.example.com")
    assert _connects(guarded, origin="https://eu.tables.example.com")
    assert not _connects(guarded, origin="http://play.example.com")  # the scheme is part of it
    assert not _connects(guarded, origin="https://play.example.com:8443")


def test_behind_the_tls_proxy_the_forwarded_scheme_decides(settings):
    """Daphne puts no scheme in a websocket's scope; with SECURE_PROXY_SSL_HEADER (production)
    the proxy's X-Forwarded-Proto says whether the browser's socket was secure."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.ALLOWED_HOSTS = ["poker.example.com"]
    forwarded_https = [(b"x-forwarded-proto", b"https")]
    assert _connects(
        guarded, origin="https://poker.example.com", host="poker.example.com", extra_headers=forwarded_https
    )
    assert not _connects(
        guarded, origin="http://poker.example.com", host="poker.example.com", extra_headers=forwarded_https
    )
    assert _connects(guarded, origin="http://poker.example.com", host="poker.example.com")  # no header: ws


@pytest.mark.django_db(transaction=True)
def test_the_site_guards_its_own_sockets_with_it():
    from config.asgi import application

    assert _connects(application, origin=f"http://{SITE}", path="/ws/lobby/")
    assert not _connects(application, origin="http://127.0.0.1:1", path="/ws/lobby/")
