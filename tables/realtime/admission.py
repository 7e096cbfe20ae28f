"""Admission control: what a server process has in flight, and which sockets it still takes.

Each process counts the work it has started and not finished: a socket from its handshake
until its snapshot is sent, and a frame from its arrival until its service returns. Past
``WEBSOCKET_MAX_IN_FLIGHT`` a new socket of someone without a seat at the table is refused
at once with close code 1013 ("try again later"), before any database work: the page
reconnects after a jittered backoff and says meanwhile that it is reconnecting. A seated
player's socket is still taken, up to twice the bound: a player at a table comes before a
watcher. Past that everyone is refused, so the work queued in a process stays bounded.

Who is seated is known without the database: the process that makes a table's change
writes the table's seated players to the cache (``remember_seated``), and a socket asks it
only when the process is past its bound.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

TRY_AGAIN_LATER = 1013  # RFC 6455 (IANA registry): the server is overloaded
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

    def admits(self, seated: bool | None) -> bool:
        """Whether a new socket is taken now; ``seated``: its user has a seat at its table
        (None: not asked, the process is under its bound)."""
        bound = settings.WEBSOCKET_MAX_IN_FLIGHT
        if self.count < bound:
            return True
        return bool(seated) and self.count < 2 * bound

    @property
    def past_bound(self) -> bool:
        return self.count >= settings.WEBSOCKET_MAX_IN_FLIGHT


in_flight = InFlight()

# What this process last wrote for each table: written again only when it changes.
_written: dict[int, frozenset[int]] = {}


def remember_seated(table_id: int, player_ids: Iterable[int]) -> None:
    """The table's seated players, for the sockets of any process to know (a cache write only
    when they changed since this process wrote them)."""
    seated = frozenset(player_ids)
    if _written.get(table_id) == seated:
        return
    try:
        cache.set(SEATED_KEY.format(table_id=table_id), sorted(seated), timeout=SEATED_SECONDS)
    except Exception:
        logger.warning("table %s: seated players not cached", table_id, exc_info=True)
        return
    _written[table_id] = seated


def is_seated(table_id: int, user_id: int | None) -> bool:
    if user_id is None:
        return False
    try:
        seated = cache.get(SEATED_KEY.format(table_id=table_id)) or ()
    except Exception:
        return False  # the cache away: treated as a watcher
    return user_id in seated
