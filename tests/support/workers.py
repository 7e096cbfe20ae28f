"""Each pytest-xdist worker (``scripts/test`` runs one per core) gets services of its own, so no
worker sees another's state: pytest-django suffixes the test database (``test_poker_gw0``,
``test_poker_gw1``, ...), and this plugin moves REDIS_URL (channel layer, its prefix, Celery's
queues) and CACHE_URL (the cache, cleared before every test) to Redis databases of the worker's
own. Processes a test starts beside itself take these from the settings, as before.

Loaded with ``-p`` (pytest.ini), so it runs before pytest-django reads the settings; xdist names
the worker in PYTEST_XDIST_WORKER before that. Without xdist it changes nothing.
"""

import os
import re

REDIS_DATABASES = 16  # redis-server's default ``databases``


def worker_number() -> int | None:
    """0 for gw0, 1 for gw1, ...; None outside an xdist worker."""
    match = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
    return int(match.group(1)) if match else None


def redis_database(url: str) -> int:
    match = re.fullmatch(r"redis://[^/?#]*(?:/(\d*))?", url)
    if not match:
        raise ValueError(f"expected redis://host:port/N, got {url!r}")
    return int(match.group(1) or 0)


def with_database(url: str, database: int) -> str:
    base = re.fullmatch(r"(redis://[^/?#]*)(?:/\d*)?", url)
    assert base, url
    return f"{base.group(1)}/{database}"


def worker_urls(redis_url: str, cache_url: str, worker: int, workers: int) -> tuple[str, str]:
    """Worker ``worker``'s two URLs, of ``workers``: both databases moved up by the same step for
    each worker (wrapping round Redis's 16), the smallest step that gives no two workers a
    database in common (0 and 1: gw0 gets 0 and 1, gw1 2 and 3, ...)."""
    layer, cache = redis_database(redis_url), redis_database(cache_url or redis_url)
    for step in range(1, REDIS_DATABASES):
        pairs = [((layer + n * step) % REDIS_DATABASES, (cache + n * step) % REDIS_DATABASES) for n in range(workers)]
        used = [db for pair in pairs for db in set(pair)]
        if len(used) == len(set(used)):
            moved_layer, moved_cache = pairs[worker]
            return with_database(redis_url, moved_layer), with_database(cache_url or redis_url, moved_cache)
    raise ValueError(
        f"{workers} workers need more Redis databases than its {REDIS_DATABASES}: run fewer (TEST_WORKERS)"
    )


# What scripts/test gave the whole run, before this worker's move.
GIVEN_REDIS_URL, GIVEN_CACHE_URL = os.environ.get("REDIS_URL", ""), os.environ.get("CACHE_URL", "")


def _move_to_worker_databases() -> None:
    worker = worker_number()
    if worker is None or not GIVEN_REDIS_URL:
        return  # one process, or the embedded default (in-process layer and cache)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", worker + 1))
    os.environ["REDIS_URL"], os.environ["CACHE_URL"] = worker_urls(GIVEN_REDIS_URL, GIVEN_CACHE_URL, worker, workers)


_move_to_worker_databases()

# The test processes import config.asgi (to call the application, or at collection) without
# being servers: the server processes' collector tuning (freezing what is loaded, rare full
# collections: operations/gc_pauses.py) stays out of them and of the servers they start.
# tests/operations/test_metrics.py checks it in a process of its own.
os.environ.setdefault("WEB_GC_TUNING", "0")
