"""How a socket is refused when its process cannot serve it now (``admission`` decides when):
accepted, told in its browser's language how long to wait at least, and closed with 1013.

``RefuseWhenSwamped`` makes the refusals that cost least, in the handshake, before the
session, the user or the consumer: at twice the bound of work in flight, and for a table the
process sheds (``admission.TablesServed``). The shed tables' pages are asked to come back at
a pace (``ShedWaits``).
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation.trans_real import parse_accept_lang_header

from accounts.languages import supported
from operations import metrics
from tables.presentation.fragments import busy_fragment

from .admission import (
    RETRY_AFTER_SECONDS,
    TRY_AGAIN_LATER,
    handshakes,
    in_flight,
    seated_first,
    tables_here,
    tables_served,
)
from .loop_lag import ensure_probing

FULL_RETRY_MAX_SECONDS = 600  # the longest wait a shed table's page is asked for
FIRST_REFUSALS_SECONDS = 5  # how long a table refused for the first time is asked for the short wait
FIRSTS_COUNTED_SECONDS = 60  # how long a first refusal given the short wait counts toward a process's worth
SHED_TABLES_KEPT = 20_000  # the tables whose refusals are remembered


class ShedWaits:
    """The waits asked of the pages of tables this process sheds (``TablesServed``), spread so
    that their tries come back at most ``WEBSOCKET_SHED_RETRIES_PER_SECOND`` a second: each
    refusal is given the next free moment of that pace, at least ``RETRY_AFTER_SECONDS["full"]``
    ahead and at most ``FULL_RETRY_MAX_SECONDS``. Past saturation the shed tables' players
    outnumber the served ones many times over, and each try is a whole websocket handshake on
    the cores the served tables need: at a fixed wait, thousands of pages would come back
    every half minute, forever; paced, they cost a fixed share of the process however many
    they are, and come back in turn (0: the fixed wait).

    A table refused here for the first time (or for the first time in ``FULL_RETRY_MAX_SECONDS``)
    is asked for the short "busy" wait for ``FIRST_REFUSALS_SECONDS``: its pages most often come
    from a process of the room that has just gone away (killed, restarting, deployed), which the
    proxy sends them back to as soon as it is back, a second or two later; told to wait the
    paced minute or more, a restart would keep its players out that long. A process that went
    away served at most ``WEBSOCKET_MAX_TABLES`` tables: past that many first refusals given the
    short wait in ``FIRSTS_COUNTED_SECONDS`` (a room's start past its capacity, every table new)
    a table is shed at once. Counted over a minute, not over the short waits' own seconds: a
    room starting at four times a process's worth would otherwise give the short wait to a new
    process's worth every ``FIRST_REFUSALS_SECONDS``, each table's pages trying again every
    second or two: on a slow machine two handshakes in five of such a start's were those.
    A table still turned away past its short waits is shed, and waits its turn."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self._next = 0.0  # the next free moment (``clock``'s time)
        # table -> (its first refusal here, its last), the oldest refused first; at most SHED_TABLES_KEPT
        self._refused: OrderedDict[int, tuple[float, float]] = OrderedDict()
        self._firsts: deque[float] = deque()  # the short-waited first refusals of the last FIRSTS_COUNTED_SECONDS

    def wait(self, table_id: int | None = None) -> int:
        """Seconds a page (of ``table_id``) refused now is asked to wait at least."""
        least = RETRY_AFTER_SECONDS["full"]
        pace = settings.WEBSOCKET_SHED_RETRIES_PER_SECOND
        with self._lock:
            now = self._clock()
            if table_id is not None and self._first_refusals(table_id, now):
                return RETRY_AFTER_SECONDS["busy"]
            if pace <= 0:
                return least
            # A page comes back between half the asked wait and the whole of it (its jitter):
            # the pace holds on average, a burst at most twice it.
            moment = max(self._next, now + least)
            if moment - now > FULL_RETRY_MAX_SECONDS:
                return FULL_RETRY_MAX_SECONDS  # beyond the longest wait: asked for it, no moment taken
            self._next = moment + 1 / pace
            return round(moment - now)

    def served(self, table_id: int) -> None:
        """The table is served here now: a later refusal of it is a first one again."""
        with self._lock:
            self._refused.pop(table_id, None)

    def _first_refusals(self, table_id: int, now: float) -> bool:
        refused = self._refused.pop(table_id, None)
        if refused is not None and now - refused[1] <= FULL_RETRY_MAX_SECONDS:
            first = refused[0]
        else:  # a first refusal: the short wait while fewer than a process's worth had it this minute
            while self._firsts and now - self._firsts[0] > FIRSTS_COUNTED_SECONDS:
                self._firsts.popleft()
            bound = settings.WEBSOCKET_MAX_TABLES
            if bound and len(self._firsts) >= bound:
                first = -math.inf  # more than a process that went away could have served: shed
            else:
                first = now
                self._firsts.append(now)
        self._refused[table_id] = (first, now)
        while len(self._refused) > SHED_TABLES_KEPT:
            self._refused.popitem(last=False)
        return now - first <= FIRST_REFUSALS_SECONDS


shed_waits = ShedWaits()


def busy_text() -> str:
    return gettext("The room is busy: reconnecting in a moment.")


def full_text() -> str:
    return gettext("The room is full: this table reconnects by itself as soon as there is room.")


# The refusal's frame in each language, for each kind and wait, rendered once.
_refusals: dict[tuple[str, str, int], str] = {}

SWAMPED_PATHS = ("/ws/tables/", "/ws/lobby/", "/ws/tournaments/")  # the sockets that ``busy_refusal``
TABLE_PATH = re.compile(r"^/ws/tables/(\d+)/")


def _browser_language(scope) -> str:
    """The language a socket's browser asks for, from its handshake alone (the language cookie,
    else Accept-Language): the user is not known yet."""
    headers = dict(scope.get("headers") or [])
    cookie = headers.get(b"cookie")
    if cookie:
        chosen = parse_cookie(cookie.decode("latin-1")).get(settings.LANGUAGE_COOKIE_NAME)
        if chosen and (found := supported(chosen)):
            return found
    for code, _quality in parse_accept_lang_header(headers.get(b"accept-language", b"").decode("latin-1")):
        if code != "*" and (found := supported(code)):
            return found
    return settings.LANGUAGE_CODE


def refusal_frame(language: str, how: str = "busy", seconds: int | None = None) -> str:
    """The busy refusal's frame in ``language``, asking for the wait of ``how`` ("busy": past
    the bound, "swamped": at twice it, "full": a table shed) or for ``seconds``."""
    seconds = RETRY_AFTER_SECONDS[how] if seconds is None else seconds
    frame = _refusals.get((language, how, seconds))
    if frame is None:
        with translation.override(language):
            text = full_text() if how == "full" else busy_text()
            frame = _refusals[(language, how, seconds)] = busy_fragment(text, seconds)
    return frame


class RefuseWhenSwamped:
    """ASGI middleware for the websockets: while this process is at twice its bound of work in
    flight, a room socket is refused at its handshake (accepted, told, closed with 1013), before
    its session, user or consumer cost anything; so is a table socket whose table this process
    does not serve while it serves its most tables (``tables_served``). Staff sockets go on to
    their consumer."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "")
        if not path.startswith(SWAMPED_PATHS):
            return await self.app(scope, receive, send)
        ensure_probing()
        table = TABLE_PATH.match(path)
        if table is None:
            if in_flight.swamped:
                return await self._refused(scope, receive, send, "swamped", "busy")
            return await self._answered(scope, receive, send)
        table_id = int(table.group(1))
        claim = tables_served.take(table_id)
        if claim is None:
            return await self._refused(scope, receive, send, "full", "tables_full", table_id)
        try:
            if not claim.joined:
                shed_waits.served(table_id)
            # A socket of a table playing here goes on to its consumer, which takes a seated
            # player's whatever the work in flight (``InFlight.admits``).
            if in_flight.swamped and not (seated_first() or claim.joined or tables_here.playing(table_id)):
                return await self._refused(scope, receive, send, "swamped", "busy")
            return await self._answered({**scope, "table_claim": claim}, receive, send)
        finally:
            tables_served.leave(claim)

    async def _refused(self, scope, receive, send, how: str, reason: str, table_id: int | None = None):
        message = await receive()
        if message.get("type") != "websocket.connect":
            return None  # gone before its handshake
        metrics.CONNECTS_REFUSED.labels(reason).inc()
        seconds = shed_waits.wait(table_id) if how == "full" else None
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": refusal_frame(_browser_language(scope), how, seconds)})
        await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})
        return None

    async def _answered(self, scope, receive, send):
        """The inner application, counted in ``handshakes`` until it answers the handshake."""
        answering = True
        handshakes.enter()

        async def sending(message):
            nonlocal answering
            if answering and message.get("type") in ("websocket.accept", "websocket.close"):
                answering = False
                handshakes.leave()
            await send(message)

        try:
            return await self.app(scope, receive, sending)
        finally:
            if answering:
                handshakes.leave()
