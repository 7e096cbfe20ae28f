"""The frames a client may send, budgeted per user over all their sockets and every server
process: eight tabs do not buy eight budgets.

A budget is a token bucket (a burst of ``WEBSOCKET_FRAME_BURST`` frames, refilled at
``WEBSOCKET_FRAMES_PER_SECOND``) kept in the shared cache: one script run in Redis takes a
frame from it atomically, on Redis's own clock, so every process of the room draws on the
same bucket. Without Redis (one process serves everything) the buckets are this process's.
A visitor who is not logged in is budgeted per socket (``TokenBucket``): their frames are
all refused without any work, and their sockets are capped per address.

Counting is best effort: while the cache is away, each socket falls back on a bucket of its
own (the budget per socket of old), never on an error for the socket.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

from config.kept_connections import KeptScript
from config.outages import OUTAGES
from operations.outage_log import OutageLog

logger = logging.getLogger(__name__)


@dataclass
class TokenBucket:
    """``capacity`` frames at once, refilled at ``per_second``; ``now`` is a monotonic clock."""

    capacity: float
    per_second: float
    tokens: float = field(init=False)
    updated: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.capacity
        self.updated = time.monotonic()

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.per_second)
        self.updated = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# KEYS[1]: the user's bucket; ARGV: its capacity and refill per second. Returns 1 if a frame
# was taken. Redis's clock: the same for every server process. With KEYS[2] (a note that a
# player's action is on its way, ``on_time``), the frame taken, the note is written too unless
# one is there already (ARGV[3] its value, ARGV[4] its seconds), and 2 is added: one trip to
# the cache for both, on the event loop, where an action frame arrives. With more KEYS (what
# the socket's session check reads: ``accounts.socket_sessions.SessionCheck.cache_keys``),
# their values follow the answer, in the same trip.
TAKE_A_FRAME = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local capacity, per_second = tonumber(ARGV[1]), tonumber(ARGV[2])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'updated')
local tokens, updated = tonumber(held[1]) or capacity, tonumber(held[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - updated) * per_second)
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updated', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(capacity / math.max(per_second, 0.001)) + 1)
if taken == 1 and #KEYS > 1 and redis.call('SET', KEYS[2], ARGV[3], 'NX', 'EX', ARGV[4]) then
  taken = 3
end
if #KEYS < 3 then
  return taken
end
local answer = {taken}
for index = 3, #KEYS do
  answer[index - 1] = redis.call('GET', KEYS[index])
end
return answer
"""

# A frame whose sender's budget was not asked when it arrived (the socket's ``frame_taken``).
NOT_TAKEN = object()

_outage = OutageLog(logger, "frame budgets: the cache did not answer", "each socket counts its own frames meanwhile")


class FrameBudgets:
    """Takes frames from the users' buckets, in the shared cache or (without Redis) here."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._local: dict[int, TokenBucket] = {}
        self._script = KeptScript(TAKE_A_FRAME)  # run on every frame: on a connection kept for it

    def take(self, user_id: int) -> bool | None:
        """Whether the user may send one more frame; None when the cache did not answer."""
        capacity, per_second = settings.WEBSOCKET_FRAME_BURST, settings.WEBSOCKET_FRAMES_PER_SECOND
        backend = caches["default"]
        if not isinstance(backend, RedisCache):
            return self._take_here(user_id, capacity, per_second)
        try:
            taken = bool(self._take_in_redis(backend, f"frames:user:{user_id}", capacity, per_second))
        except OUTAGES as error:
            _outage.failed(error)
            return None
        _outage.answered()
        return taken

    def take_noting(
        self, user_id: int, note: tuple[str, float, int] | None, reads: tuple[str, ...] = ()
    ) -> tuple[bool | None, bool | None, dict[str, object] | None]:
        """``take``, and with ``note`` (a cache key, its value, its seconds) that cache entry added
        in the same trip when the frame is taken and the key is not there yet, and the cache
        entries ``reads`` names read. Returns (taken, noted, read); noted None when the note was
        not tried here (no Redis, or it did not answer): the caller notes it its own way; read
        (key -> the entry as the cache holds it, undecoded, for ``SessionCheck.current``; an
        entry not there left out) None when they were not read."""
        capacity, per_second = settings.WEBSOCKET_FRAME_BURST, settings.WEBSOCKET_FRAMES_PER_SECOND
        backend = caches["default"]
        if note is None or not isinstance(backend, RedisCache):
            return self.take(user_id), None, None
        try:
            found = self._take_in_redis(backend, f"frames:user:{user_id}", capacity, per_second, note, reads)
        except OUTAGES as error:
            _outage.failed(error)
            return None, None, None
        _outage.answered()
        if not reads:
            return bool(found & 1), bool(found & 2), None
        answer, *values = found
        read = {key: value for key, value in zip(reads, values, strict=True) if value is not None}
        return bool(answer & 1), bool(answer & 2), read

    def _take_in_redis(
        self,
        backend: RedisCache,
        name: str,
        capacity: float,
        per_second: float,
        note: tuple[str, float, int] | None = None,
        reads: tuple[str, ...] = (),
    ):
        # The keys made as the cache makes them (its prefix and version), without its check that
        # they would suit memcached (a walk over every character, on every frame): these are
        # this module's own and the session check's, all short and plain.
        key = backend.make_key(name)
        client = backend._cache.get_client(key, write=True)
        if note is None:
            return int(self._script.run(client, [key], [capacity, per_second]))
        note_key, value, seconds = note
        # Written as Django's cache writes it, for ``cache.get`` to read (its serializer).
        written = backend._cache._serializer.dumps(value)
        keys = [key, backend.make_key(note_key), *map(backend.make_key, reads)]
        found = self._script.run(client, keys, [capacity, per_second, written, seconds])
        return found if reads else int(found)

    def _take_here(self, user_id: int, capacity: float, per_second: float) -> bool:
        with self._lock:
            bucket = self._local.get(user_id)
            if bucket is None or (bucket.capacity, bucket.per_second) != (capacity, per_second):
                bucket = self._local[user_id] = TokenBucket(capacity, per_second)
            return bucket.take()


budgets = FrameBudgets()
