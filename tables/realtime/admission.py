"""Admission control: what a server process has in flight, and which sockets it still takes.

Each process counts the work it has started and not finished: a socket from its handshake
until its snapshot is sent, and a frame from its arrival until its service returns. Past
``WEBSOCKET_MAX_IN_FLIGHT`` a new socket of someone without a seat at the table is refused
at once with close code 1013 ("try again later"), before any database work: the page
reconnects after a jittered backoff and says meanwhile that it is reconnecting. A seated
player's socket is still taken: a player at a table comes before a watcher, and a player
joining a table already playing here (``tables_here``: a seated player's screen is shown by
this process; or served here, another of its sockets having opened here first) before one
whose table has nobody here yet, so tables fill up whole (a table missing one player's
screen plays at the pace of that player's clock). While the tables a
process serves are bounded (below), a seated player's socket is taken at any count: those
tables bound what their players bring, and only watchers wait. Without that bound, up to one
and a half times the bound any seated player is taken, and one joining a table playing here
at any count; at twice the bound everyone else is refused, so the work queued in a process
stays bounded.

Who is seated is known without the database: the process that makes a table's change
writes the table's seated players to the cache (``remember_seated``), and a socket asks it
only when the process is past its bound and under twice it; a table the cache does not know
yet (no change since the cache or the room started) counts a signed-in user as seated.

A refused page waits before it tries again, at least the seconds the refusal asks for
(``RETRY_AFTER_SECONDS``: longer at twice the bound than past it), and more the more refusals
it meets in a row: every page that comes back too soon is one more refusal to make, a whole
websocket handshake each, and a process past its bound has none to spare.

A refusal costs as little as it can, since a busy process makes many: at twice the bound,
where nobody but a player of a table playing here is taken, ``refusals.RefuseWhenSwamped`` refuses
every other socket in the handshake, before the session, the user and the consumer (no
cache read, no database), in the language the browser asks for (its cookie, else its
Accept-Language).

Past its capacity a process serves the tables it has and sheds the rest whole
(``TablesServed``): it serves at most ``WEBSOCKET_MAX_TABLES`` tables at once (a table is
served while a socket that is, or may be, a seated player's is open for it: watchers hold
none), and a socket for any other table is refused in the handshake too, asking for a
longer wait ("full"). Past saturation every table a process takes makes every other one
slower, and a table missing
some of its players' screens plays at the pace of their clock: a room that serves the tables
it can carry at full speed serves more than one that serves every table badly. The proxy
hashes each table to one process, so a shed table is served once a table there closes. The
shed tables' pages are asked to come back in turn, at a pace the process sets
(``refusals.ShedWaits``), however many they are.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.cache import cache

from operations import metrics

logger = logging.getLogger(__name__)

TRY_AGAIN_LATER = 1013  # RFC 6455 (IANA registry): the server is overloaded
# The least wait a refused page is asked for, in seconds: past the bound, and at twice it.
RETRY_AFTER_SECONDS = {"busy": 3, "swamped": 10, "full": 30}  # "full": the process serves its most tables
SEATED_KEY = "table-seated:{table_id}"
SEATED_SECONDS = 3600


class InFlight:
    """The work this process has started and not finished."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0

    def enter(self) -> None:
        with self._lock:
            self.count += 1

    def leave(self) -> None:
        with self._lock:
            self.count = max(0, self.count - 1)

    def admits(self, seated: bool | None, joins_playing_table: bool = False) -> bool:
        """Whether a new socket is taken now; ``seated``: its user has a seat at its table
        (None: not asked, the process is under its bound or at twice it);
        ``joins_playing_table``: that table is playing here (``tables_here``)."""
        bound = settings.WEBSOCKET_MAX_IN_FLIGHT
        if self.count < bound:
            return True
        if not seated:
            return False
        # A seated player is always taken while the tables a process serves are bounded
        # (``TablesServed``: they bound what their players' sockets bring), and a player of a
        # table playing here in any case: a table missing one of its players' screens plays
        # at the pace of that player's clock.
        return seated_first() or joins_playing_table or self.count < bound + bound // 2

    def asks_seated(self, joins_playing_table: bool = False) -> bool:
        """Whether a socket's seat decides: past the bound (and at twice it only where a seated
        player is taken there)."""
        bound = settings.WEBSOCKET_MAX_IN_FLIGHT
        return bound <= self.count and (seated_first() or joins_playing_table or self.count < 2 * bound)

    @property
    def swamped(self) -> bool:
        """At twice the bound, counting the handshakes still reading their session and user
        (``handshakes``): no new socket is taken, a seated player's neither."""
        return self.count + handshakes.count >= 2 * settings.WEBSOCKET_MAX_IN_FLIGHT


def seated_first() -> bool:
    """Whether the tables this process serves are bounded (``WEBSOCKET_MAX_TABLES``): then
    every seated player's socket is taken whatever the work in flight, and only watchers'
    wait for it."""
    return settings.WEBSOCKET_MAX_TABLES > 0


class TablesHere:
    """The tables playing here: those with a seated player's screen shown by this process (a
    table socket counted from its first snapshot shown to its close)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sockets: dict[int, int] = {}

    def shown(self, table_id: int) -> None:
        with self._lock:
            self._sockets[table_id] = self._sockets.get(table_id, 0) + 1
            metrics.TABLES_PLAYING.set(len(self._sockets))

    def closed(self, table_id: int) -> None:
        with self._lock:
            left = self._sockets.get(table_id, 0) - 1
            if left > 0:
                self._sockets[table_id] = left
            else:
                self._sockets.pop(table_id, None)
            metrics.TABLES_PLAYING.set(len(self._sockets))

    def playing(self, table_id: int) -> bool:
        return table_id in self._sockets


class TableClaim:
    """One socket's share in its table being served here: counted toward the bound while the
    socket may be a player's (from its handshake, until its screen shows a watcher's)."""

    __slots__ = ("counted", "joined", "table_id")

    def __init__(self, table_id: int, joined: bool) -> None:
        self.table_id = table_id
        self.counted = True
        self.joined = joined  # the table was served here already: this socket joins it


class TablesServed:
    """The tables this process serves: at most ``WEBSOCKET_MAX_TABLES`` (0: no bound) with a
    socket that is, or may be, a seated player's. A watcher's socket counts only while it
    opens (who it is is not known before its session is read): a watcher holds no table here,
    so watchers cannot keep players' tables out; one who sits down counts from then on."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counted: dict[int, int] = {}  # table -> its sockets that may be players'
        self._watching: dict[int, int] = {}  # table -> its watchers' sockets

    def take(self, table_id: int) -> TableClaim | None:
        """A socket of ``table_id`` opens: its claim, or None when its table is not served here
        and the process serves its most tables already (then nothing is counted)."""
        bound = settings.WEBSOCKET_MAX_TABLES
        with self._lock:
            sockets = self._counted.get(table_id, 0)
            if not sockets and bound and len(self._counted) >= bound:
                return None
            self._counted[table_id] = sockets + 1
            self._gauge()
            return TableClaim(table_id, joined=sockets > 0)

    def watching(self, claim: TableClaim, watching: bool) -> None:
        """The claim's socket shows a watcher's screen (True) or a seated player's (False)."""
        if claim.counted != watching:
            return
        with self._lock:
            self._drop(claim)
            claim.counted = not watching
            into = self._watching if watching else self._counted
            into[claim.table_id] = into.get(claim.table_id, 0) + 1
            self._gauge()

    def leave(self, claim: TableClaim) -> None:
        with self._lock:
            self._drop(claim)
            self._gauge()

    def _drop(self, claim: TableClaim) -> None:
        sockets = self._counted if claim.counted else self._watching
        left = sockets.get(claim.table_id, 0) - 1
        if left > 0:
            sockets[claim.table_id] = left
        else:
            sockets.pop(claim.table_id, None)

    def _gauge(self) -> None:
        metrics.TABLES_SERVED.set(len(self._counted))

    def __len__(self) -> int:
        return len(self._counted)


class Handshakes(InFlight):
    """The room sockets between their handshake's start and its answer (accepted or closed): on
    a starved machine they wait there, for the cache and the session, unseen by ``in_flight``
    until their consumer runs; past the client's patience they are given up and tried again.

    Handshakes come first: a socket already answered reads its first screen once no handshake
    is left unanswered (``answered``), or after ``HANDSHAKES_FIRST_SECONDS``. When a room's
    sockets open at once (a restart, an evening's rush), the screens' rendering would otherwise
    hold the GIL against the handshakes' few steps on the loop and the cache threads: answered
    at tens a second, the later ones outlast the pages' patience and are tried again (by a
    proxy, on another process), while answered first they all are in a second or two and each
    page then waits for its screen, which it does not give up on."""

    def __init__(self) -> None:
        super().__init__()
        self._waiters: set[asyncio.Future] = set()

    def leave(self) -> None:
        with self._lock:
            self.count = max(0, self.count - 1)
            if self.count:
                return
            waiters, self._waiters = self._waiters, set()
        for waiter in waiters:
            waiter.get_loop().call_soon_threadsafe(_wake, waiter)

    async def answered(self, most: float) -> None:
        """Returns once no handshake is left unanswered, or after ``most`` seconds."""
        waiter = asyncio.get_running_loop().create_future()
        with self._lock:
            if not self.count:
                return
            self._waiters.add(waiter)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, most)
        finally:
            with self._lock:
                self._waiters.discard(waiter)


def _wake(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_result(None)


HANDSHAKES_FIRST_SECONDS = 3.0

in_flight = InFlight()
tables_here = TablesHere()
tables_served = TablesServed()
handshakes = Handshakes()

# What this process last wrote for each table, and when (monotonic): written again when it
# changes, or when half its time in the cache has gone (a table whose players stay for hours
# keeps its entry).
_written: dict[int, tuple[frozenset[int], float]] = {}


def remember_seated(table_id: int, player_ids: Iterable[int], clock: Callable[[], float] = time.monotonic) -> None:
    """The table's seated players, for the sockets of any process to know (a cache write only
    when they changed since this process wrote them, or half their time in the cache ago)."""
    seated, now = frozenset(player_ids), clock()
    written = _written.get(table_id)
    if written is not None and written[0] == seated and now - written[1] < SEATED_SECONDS / 2:
        return
    try:
        cache.set(SEATED_KEY.format(table_id=table_id), sorted(seated), timeout=SEATED_SECONDS)
    except Exception:
        logger.warning("table %s: seated players not cached", table_id, exc_info=True)
        return
    _written[table_id] = (seated, now)


def is_seated(table_id: int, user_id: int | None) -> bool:
    """Whether ``user_id`` has a seat at the table, as the cache knows. A table the cache knows
    nothing of (no change since the cache started, as after a restart of it or of the room)
    gives a signed-in user the benefit of the doubt: a seated player is not refused as a
    watcher, and the table's next change writes who is seated."""
    if user_id is None:
        return False
    try:
        seated = cache.get(SEATED_KEY.format(table_id=table_id))
    except Exception:
        return False  # the cache away: treated as a watcher
    return seated is None or user_id in seated
