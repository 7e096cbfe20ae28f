"""The errors that mean a service the room stands on is away for a moment, not a bug.

Redis (the channel layer, the cache, the broker) and PostgreSQL restart; while they do,
their clients raise these. The edges catch them, tell whoever is waiting in a line of the
log without a traceback, and carry on: the screens catch up by version once the service is
back (``tables.realtime.socket_recovery``), the clock's next tick applies what is due.
"""

from __future__ import annotations

import redis.exceptions
from django.db import InterfaceError, OperationalError

# OSError covers the refused and reset connections asyncio and redis-py raise as they are.
CHANNEL_LAYER_ERRORS: tuple[type[BaseException], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    OSError,
)
DATABASE_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)
OUTAGES = CHANNEL_LAYER_ERRORS + DATABASE_ERRORS


def describe(error: BaseException) -> str:
    """One line for the log: which kind of error and its first line."""
    first = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {first}"[:300]
