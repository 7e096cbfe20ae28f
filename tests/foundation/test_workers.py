"""Each xdist worker of scripts/test gets Redis databases of its own (tests/support/workers.py):
the channel layer with its prefix and Celery's queues on one, the cache on another."""

import pytest
from django.conf import settings

from ..support.backends import on_postgresql
from ..support.workers import GIVEN_CACHE_URL, GIVEN_REDIS_URL, redis_database, worker_number, worker_urls


def test_worker_n_moves_both_databases_up_by_n_steps():
    urls = [worker_urls("redis://127.0.0.1:6381/0", "redis://127.0.0.1:6381/1", n, 4) for n in range(4)]
    assert urls[0] == ("redis://127.0.0.1:6381/0", "redis://127.0.0.1:6381/1")
    assert urls[1] == ("redis://127.0.0.1:6381/2", "redis://127.0.0.1:6381/3")
    used = [redis_database(url) for pair in urls for url in pair]
    assert sorted(used) == list(range(8))  # no two workers share a database


def test_no_two_workers_share_a_database_whatever_the_two_given():
    for layer, cache, workers in [(9, 1, 2), (9, 1, 4), (3, 5, 4), (5, 2, 3), (15, 14, 4), (0, 0, 4)]:
        pairs = [worker_urls(f"redis://h:1/{layer}", f"redis://h:1/{cache}", n, workers) for n in range(workers)]
        assert pairs[0] == (f"redis://h:1/{layer}", f"redis://h:1/{cache}")
        used = [{redis_database(url) for url in pair} for pair in pairs]
        assert sum(len(dbs) for dbs in used) == len(set().union(*used)), (layer, cache, used)


def test_a_cache_on_the_layers_database_stays_with_it():
    assert worker_urls("redis://h:1", "", 3, 4) == ("redis://h:1/3", "redis://h:1/3")
    assert worker_urls("redis://h:1/4", "redis://h:1/4", 2, 3) == ("redis://h:1/6", "redis://h:1/6")


def test_more_workers_than_redis_has_databases_is_refused():
    with pytest.raises(ValueError, match="run fewer"):
        worker_urls("redis://h:1/0", "redis://h:1/1", 8, 9)


def test_this_process_uses_its_workers_databases(request, db):
    """The settings were read after the move: the worker's own Redis databases (the channel
    layer's prefix names its database), and pytest-django's worker suffix on the test database."""
    from django.db import connection

    worker = worker_number()
    if worker is None:
        pytest.skip("not in an xdist worker")
    assert connection.settings_dict["NAME"].endswith(f"_gw{worker}") or not on_postgresql()
    if not GIVEN_REDIS_URL:
        pytest.skip("the embedded default: the in-process layer and cache, in this process")
    workers = request.config.workerinput["workercount"]
    assert worker_urls(GIVEN_REDIS_URL, GIVEN_CACHE_URL, worker, workers) == (settings.REDIS_URL, settings.CACHE_URL)
    assert settings.CACHES["default"]["LOCATION"] == settings.CACHE_URL
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix")
    assert prefix is None or prefix == f"asgi{redis_database(settings.REDIS_URL)}."
