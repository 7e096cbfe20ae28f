"""Fixtures for the pages and websockets: table set-ups, websocket viewers, a daphne live server, Chromium."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from tables import services
from tables.engine.cards import parse_cards
from tables.models import Hand
from tables.routing import websocket_urlpatterns

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage",
]  # fmt: skip

# Seat 1 sits first (button, small blind heads-up); seat 2 is the big blind. The deal starts
# left of the button, one card at a time: seat 2 gets Ac Ad 8c 5d, seat 1 gets Kd Kh 2c 4s;
# board Ks 7h 7d / 3c / 9s. Seat 1 wins with kings full of sevens.
SHOWDOWN_DECK = "Ac Kd Ad Kh 8c 2c 5d 4s 2d Ks 7h 7d 2h 3c 3d 9s"
SEAT_1_CARDS = ["Kd", "Kh", "2c", "4s"]
SEAT_2_CARDS = ["Ac", "Ad", "8c", "5d"]


@pytest.fixture(autouse=True)
def no_pause_between_hands(settings):
    settings.HAND_PAUSE_SECONDS = 0


def deck_from(text: str) -> tuple[int, ...]:
    """A full deck whose first cards are ``text`` (in dealing order), the rest in a fixed order."""
    head = list(parse_cards(text))
    return tuple(head + [card for card in range(52) if card not in head])


def sit(table, player, seat_number: int, buy_in: int | None = None):
    return services.take_seat(
        user=player, table_id=table.pk, seat_number=seat_number, buy_in=buy_in or table.max_buy_in,
        post_big_blind_now=False, request_id=uuid.uuid4().hex,
    )  # fmt: skip


def start_hand(table, deck_text: str = SHOWDOWN_DECK) -> Hand:
    hand = services.start_hand_if_due(table_id=table.pk, deck=deck_from(deck_text))
    assert hand is not None
    return hand


def running_hand(table) -> Hand | None:
    return Hand.objects.filter(table=table, state=Hand.State.RUNNING).first()


# --- websocket viewers -------------------------------------------------------------

_TAGS = re.compile(r"<[^>]+>")
_addresses = itertools.count(1)


def _next_address() -> tuple[str, int]:
    n = next(_addresses)
    return f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}", 50000


_REQUEST_ID = re.compile(r'name="request_id" value="([^"]+)"')


def visible_text(html: str) -> str:
    return _TAGS.sub("", html)


class Viewer:
    """One browser tab's websocket, recording every frame it receives."""

    def __init__(self, path: str, user=None, client: tuple[str, int] | None = None):
        self.user = user
        self.communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
        self.communicator.scope["user"] = user or AnonymousUser()
        # An address of its own unless a test picks one: the per-address cap counts only what a test means it to.
        self.communicator.scope["client"] = client or _next_address()
        self.frames: list[str] = []

    async def connect(self):
        if self.user is not None and "session" not in self.communicator.scope:
            self.communicator.scope["session"] = await database_sync_to_async(logged_in_session)(self.user)
        connected, _ = await self.communicator.connect()
        assert connected
        await self.receive()  # the snapshot
        return self

    async def receive(self, timeout: float = 3) -> str:
        frame = await self.communicator.receive_from(timeout)
        self.frames.append(frame)
        return frame

    async def closed_with(self, timeout: float = 3) -> int:
        """Receive frames until the server closes the socket; returns the close code. Then
        disconnects, as the server (daphne) tells the consumer once the socket is closed."""
        async with asyncio.timeout(timeout):
            while True:
                output = await self.communicator.receive_output(timeout)
                if output["type"] == "websocket.close":
                    await self.communicator.disconnect()
                    return output.get("code", 1000)
                self.frames.append(output.get("text", ""))

    async def drain(self, quiet: float = 0.4) -> list[str]:
        """Every frame that arrives until the socket has been quiet for ``quiet`` seconds.

        (``receive_from`` timing out would cancel the consumer; ``receive_nothing`` only looks.)
        """
        got = []
        while not await self.communicator.receive_nothing(timeout=quiet):
            got.append(await self.receive())
        return got

    async def until(self, needle: str, timeout: float = 3) -> str:
        """Receive frames until one contains ``needle``."""
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.receive(timeout)
                if needle in frame:
                    return frame

    @property
    def request_id(self) -> str:
        """The one-time request id of the seat forms this socket was sent last (the server's own)."""
        for frame in reversed(self.frames):
            found = _REQUEST_ID.search(frame)
            if found:
                return found.group(1)
        raise AssertionError("no seat form with a request id was sent to this socket")

    @property
    def errors(self) -> list[str]:
        """The error lines shown to this viewer (an empty error fragment clears the line)."""
        shown = [visible_text(frame) for frame in self.frames if frame.startswith('<div id="table-error"')]
        return [text for text in shown if text]

    async def send(self, **fields):
        await self.communicator.send_to(text_data=json.dumps(fields))

    async def send_raw(self, text: str):
        await self.communicator.send_to(text_data=text)

    async def close(self):
        await self.communicator.disconnect()


def logged_in_session(user):
    """A saved session logging ``user`` in, as ``django.contrib.auth.login`` makes one."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session


def table_viewer(table, user=None, **options) -> Viewer:
    return Viewer(f"/ws/tables/{table.pk}/", user, **options)


def db(function, *args, **kwargs):
    """Await a database call from a test coroutine."""
    return database_sync_to_async(partial(function, *args, **kwargs))()


async def current_sequence(table) -> int:
    hand = await db(running_hand, table)
    return hand.sequence


@pytest.fixture(params=["redis", "in-memory"])
def channel_layer(request, settings):
    """Run a test over channels-redis (when REDIS_URL is set) and over the in-process layer."""
    if request.param == "in-memory":
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    elif not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set")
    return request.param


@pytest.fixture
def heads_up(make_player, make_table):
    """A Pot Limit 1/2 table: alice in seat 1 (sat first: the button), bob in seat 2, 200 chips each."""
    table = make_table(name="Heads-up PL")
    alice, bob = make_player("alice"), make_player("bob")
    sit(table, alice, 1)
    sit(table, bob, 2)
    return table, alice, bob


# --- the live server and the browser ----------------------------------------------------


@pytest.fixture(scope="module")
def live_server_url(django_db_setup, django_db_blocker):
    """A real daphne process serving the app (HTTP and websockets) on the test database.

    Forked with database access unblocked (the child keeps the state it is forked in)
    and before Chromium starts, so the child inherits no running event loop.
    """
    from channels.testing.live import make_application
    from daphne.testing import DaphneProcess
    from django.conf import settings
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.test import override_settings

    if "InMemory" in settings.CHANNEL_LAYERS["default"]["BACKEND"]:
        pytest.skip("the test process reaches the server's sockets only through channels-redis")
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers

    # The server is forked from this process, which may have used asgiref's thread-sensitive
    # executor (an earlier test's sync_to_async): its thread would not exist in the child and
    # every database call there would wait forever. A fresh executor starts its thread on
    # first use, in whichever process uses it. Likewise the child makes its own channel layer.
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    channel_layers.backends.clear()
    # The test deals every hand itself (with a chosen deck): no table clock in the server.
    with django_db_blocker.unblock(), override_settings(EMBEDDED_CLOCK=False):
        server = DaphneProcess("localhost", partial(make_application, static_wrapper=ASGIStaticFilesHandler))
        server.start()
    try:
        if not server.ready.wait(timeout=10):
            raise RuntimeError("daphne did not start")
        yield f"http://localhost:{server.port.value}"
    finally:
        server.terminate()
        server.join(5)


@pytest.fixture(scope="module")
def chromium(live_server_url):
    """Debian's Chromium through Playwright, for one module; stopped after it so its event
    loop does not outlive the browser tests."""
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    # Playwright's sync API keeps an event loop on this thread; the ORM calls made
    # by the test itself are still plain synchronous calls.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def in_thread(function, *args, **kwargs):
    """Call a service from a thread of its own: its after-commit broadcast uses async_to_sync,
    which refuses to run on the thread where Playwright keeps its event loop."""
    from django.db import connection

    def call():
        try:
            return function(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(call).result()
