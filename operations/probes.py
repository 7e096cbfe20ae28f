"""Round trips to the services under the room, each with a short timeout: the readiness check
and the metrics' measurements use them."""

from __future__ import annotations

import functools

import redis
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@functools.cache
def redis_client() -> redis.Redis | None:
    """The Redis under the channel layer (one small pool per process), or None without Redis."""
    if not settings.REDIS_URL:
        return None
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1, max_connections=4)


_migrated = False


def migrations_applied() -> bool:
    """Whether every migration the code has is applied (once true, remembered: none is unapplied)."""
    global _migrated
    if not _migrated:
        executor = MigrationExecutor(connection)
        _migrated = not executor.migration_plan(executor.loader.graph.leaf_nodes())
    return _migrated


def database_answers() -> None:
    """Raises (an ``OUTAGES`` error) unless PostgreSQL answers a SELECT 1."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def channel_layer_answers() -> None:
    """Raises unless the channel layer's Redis answers a PING (nothing to ask in memory)."""
    client = redis_client()
    if client is not None:
        client.ping()
