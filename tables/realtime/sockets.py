"""Open websockets, counted across every server process: for the per-user and per-IP caps,
and for a player's presence at a table (they are gone when their last socket there closes).

Each process counts its own sockets in memory, where the count is exact, and mirrors it to
the shared cache under the process's own name, refreshed by a heartbeat thread. A process
that dies without closing its sockets (kill -9) stops beating, and its counts expire with
it instead of lingering as sockets nobody holds. A total is the sum over the processes whose
heartbeat is alive.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterable

from django.core.cache import cache

from config.outages import OUTAGES
from operations.outage_log import OutageLog

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 10.0
EXPIRES_SECONDS = 3 * HEARTBEAT_SECONDS
_SERVERS_KEY = "sockets:servers"

SocketKey = tuple  # ("user", 5), ("ip", "10.0.0.7"), ("table-user", 3, 5), ("table-language", 3, "es")


def user_key(user_id: int) -> SocketKey:
    return ("user", user_id)


def ip_key(address: str) -> SocketKey:
    return ("ip", address)


def seat_presence_key(table_id: int, user_id: int) -> SocketKey:
    return ("table-user", table_id, user_id)


def table_language_key(table_id: int, language: str) -> SocketKey:
    """The sockets of a table that read it in ``language``: its public fragments are rendered
    in the languages some socket reads (``notify``)."""
    return ("table-language", table_id, language)


class SocketCounts:
    """This process's open sockets per key, and totals over every live process."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._counts: Counter[SocketKey] = Counter()
        self._pid = -1
        self.server = ""

    def opened(self, keys: Iterable[SocketKey]) -> None:
        self._ensure_beating()
        with self._lock:
            for key in keys:
                self._counts[key] += 1
            mirror = {self._cache_key(key): self._counts[key] for key in keys}
        _quietly(cache.set_many, mirror, timeout=EXPIRES_SECONDS)

    def closed(self, keys: Iterable[SocketKey]) -> None:
        self._ensure_beating()
        with self._lock:
            for key in keys:
                self._counts[key] -= 1
                if self._counts[key] <= 0:
                    del self._counts[key]
            mirror = {self._cache_key(key): self._counts.get(key, 0) for key in keys}
        _quietly(cache.set_many, mirror, timeout=EXPIRES_SECONDS)

    def here(self, keys: Iterable[SocketKey]) -> dict[SocketKey, int]:
        """Open sockets per key in this process only (exact, and no trip to the cache)."""
        with self._lock:
            return {key: self._counts.get(key, 0) for key in keys}

    def totals(self, keys: Iterable[SocketKey]) -> dict[SocketKey, int]:
        """Open sockets per key, over every live server process (this one exactly)."""
        self._ensure_beating()
        keys = list(keys)
        others = [server for server in _quietly(_live_servers, default=[]) if server != self.server]
        wanted = {f"sockets:{server}:{_name(key)}": key for server in others for key in keys}
        found = _quietly(cache.get_many, list(wanted), default={}) if wanted else {}
        with self._lock:
            totals = {key: self._counts.get(key, 0) for key in keys}
        for cache_key, count in found.items():
            totals[wanted[cache_key]] += count
        return totals

    def _cache_key(self, key: SocketKey) -> str:
        return f"sockets:{self.server}:{_name(key)}"

    def _ensure_beating(self) -> None:
        """Start this process's heartbeat (again after a fork: a child counts its own sockets)."""
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._counts.clear()
            self.server = uuid.uuid4().hex[:16]
            _quietly(self._beat)
            threading.Thread(target=self._beat_forever, name="socket-heartbeat", daemon=True).start()

    def _beat_forever(self) -> None:
        pid = os.getpid()
        while self._pid == pid:
            time.sleep(HEARTBEAT_SECONDS)
            _quietly(self._beat)

    def _beat(self) -> None:
        with self._lock:
            mirror = {self._cache_key(key): count for key, count in self._counts.items()}
        now = time.time()
        servers = {s: seen for s, seen in (cache.get(_SERVERS_KEY) or {}).items() if now - seen < EXPIRES_SECONDS}
        servers[self.server] = now
        cache.set(_SERVERS_KEY, servers, timeout=None)
        cache.set_many(mirror, timeout=EXPIRES_SECONDS)


_outage = OutageLog(logger, "socket counts: the cache did not answer", "counting on in this process")


def _quietly(call, *args, default=None, **kwargs):
    """A cache call that may fail (Redis restarting): counting is best effort, never an error
    for the socket; this process's own counts stay exact and the next beat mirrors them again.
    An outage is one line in the log when it starts and one when it ends."""
    try:
        found = call(*args, **kwargs)
    except OUTAGES as error:
        _outage.failed(error)
        return default
    except Exception:
        logger.warning("socket counts: the cache failed", exc_info=True)  # not an outage: a bug to see
        return default
    _outage.answered()
    return found


LIVE_SERVERS_SECONDS = 1.0  # how long a process reuses the list of live processes it read
_live: tuple[float, list[str]] = (0.0, [])


def _live_servers() -> list[str]:
    """The processes whose heartbeat is alive (read again after ``LIVE_SERVERS_SECONDS``: a
    socket's count needs no extra trip to the cache for a list that changes every 10 s)."""
    global _live
    now = time.time()
    read_at, live = _live
    if now - read_at < LIVE_SERVERS_SECONDS:
        return live
    live = [server for server, seen in (cache.get(_SERVERS_KEY) or {}).items() if now - seen < EXPIRES_SECONDS]
    _live = (now, live)
    return live


def _name(key: SocketKey) -> str:
    return ":".join(str(part) for part in key)


counts = SocketCounts()
