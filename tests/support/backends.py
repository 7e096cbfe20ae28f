"""Which servers the tests run on: PostgreSQL and Redis under scripts/test, or the embedded
default (SQLite and the in-process channel layer, no server at all). The ``needs_postgresql``
and ``needs_redis`` fixtures (tests/conftest.py) skip a test with these reasons."""

NEEDS_POSTGRESQL = "needs PostgreSQL (DATABASE_URL=postgres://...; scripts/test runs it): not on the embedded SQLite"
NEEDS_REDIS = "needs Redis (REDIS_URL=redis://...; scripts/test runs it): not on the in-process channel layer"


def on_postgresql() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


def on_redis() -> bool:
    """REDIS_URL is set: channels-redis, Celery on Redis, and the cache there too (unless
    CACHE_URL names another Redis database)."""
    from django.conf import settings

    return bool(settings.REDIS_URL)
