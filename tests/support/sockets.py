"""Websockets as a browser tab holds them: the ``Viewer``, and reading what its frames show."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from functools import partial

from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from bench.sessions import logged_in_session
from tables.presentation.cards import card_view
from tables.realtime.routing import websocket_urlpatterns
from tables.realtime.socket_guard import TEXT_SENDER

from .tables import running_hand

_TAGS = re.compile(r"<[^>]+>")
_REQUEST_ID = re.compile(r'name="request_id" value="([^"]+)"')
# Every change's frame carries the felt, as the felt shows the table's version.
_FELT_VERSION = re.compile(r'<section id="felt"[^>]*\bdata-version="(\d+)"')
_addresses = itertools.count(1)


def _next_address() -> tuple[str, int]:
    n = next(_addresses)
    return f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}", 50000


def visible_text(html: str) -> str:
    return _TAGS.sub("", html)


def felt_version(frame: str) -> int | None:
    """The table version whose felt ``frame`` carries (None: the frame has no felt)."""
    found = _FELT_VERSION.search(frame)
    return int(found.group(1)) if found else None


def _spoken_names(card: str) -> set[str]:
    names = set()
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            names.add(card_view(card).name)
    return names


def leaks(frames: list[str], cards: list[str]) -> list[str]:
    """Every trace of ``cards`` found in ``frames``: the engine's text ("Kd"), what the page
    prints ("K♦") and what a screen reader says, in every language of the room ("King of
    diamonds", "Rey de diamantes")."""
    found = []
    for frame in frames:
        text = visible_text(frame)
        for card in cards:
            view = card_view(card)
            if re.search(rf"\b{card}\b", frame):
                found.append(card)
            for name in _spoken_names(card):
                if name in frame:
                    found.append(name)
            if f"{view.rank}{view.symbol}" in text:
                found.append(f"{view.rank}{view.symbol}")
    return found


def leak_context(frames: list[str], cards: list[str]) -> list[str]:
    """Where ``leaks`` found a trace of ``cards``: each frame's index and the text around it, for
    a failing assertion to say which fragment carried it."""
    found = []
    for index, frame in enumerate(frames):
        if leaks([frame], cards):
            for card in cards:
                for match in re.finditer(rf"\b{card}\b", frame):
                    found.append(f"frame {index}: ...{frame[max(0, match.start() - 160) : match.end() + 80]}...")
            found.append(f"frame {index} starts: {frame[:200]}")
    return found


class Viewer:
    """One browser tab's websocket, recording every frame it receives.

    It has no "wait until quiet": a socket that was quiet for a while may still be sent a
    frame later. To show that a socket was sent nothing, make a change it must be sent and
    check that its frame comes first (``felt_version``).
    """

    def __init__(self, path: str, user=None, client: tuple[str, int] | None = None, straight: bool = False):
        """``straight``: the socket's text frames go straight to the connection, as under daphne
        (``socket_guard.TEXT_SENDER``), so a change handed over can be applied at once."""
        self.user = user
        self.communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
        self.communicator.scope["user"] = user or AnonymousUser()
        # An address of its own unless a test picks one: the per-address cap counts only what a test means it to.
        self.communicator.scope["client"] = client or _next_address()
        self.frames: list[str] = []
        self.straight_frames = 0  # frames sent straight to the connection
        if straight:
            self.communicator.scope[TEXT_SENDER] = self._send_straight

    def _send_straight(self, text: str) -> bool:
        self.straight_frames += 1
        self.communicator.output_queue.put_nowait({"type": "websocket.send", "text": text})
        return True

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

    async def until(self, needle: str, timeout: float = 3) -> str:
        """Receive frames until one contains ``needle``."""
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.receive(timeout)
                if needle in frame:
                    return frame

    async def until_version(self, version: int, timeout: float = 3) -> str:
        """Receive frames until one shows the table at ``version`` or later: then every frame
        of the changes up to it has arrived (a socket gets them in order)."""
        if self.seen_version >= version:
            return next(frame for frame in reversed(self.frames) if felt_version(frame) is not None)
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.receive(timeout)
                if (felt_version(frame) or -1) >= version:
                    return frame

    @property
    def seen_version(self) -> int:
        """The latest table version this socket has been shown (-1: none yet)."""
        return max((v for v in map(felt_version, self.frames) if v is not None), default=-1)

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


def table_viewer(table, user=None, **options) -> Viewer:
    return Viewer(f"/ws/tables/{table.pk}/", user, **options)


def db(function, *args, **kwargs):
    """Await a database call from a test coroutine."""
    return database_sync_to_async(partial(function, *args, **kwargs))()


async def current_sequence(table) -> int:
    hand = await db(running_hand, table)
    return hand.sequence
