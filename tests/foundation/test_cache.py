"""The cache's Redis connections: one pool per process, whatever the thread or async context,
and one redis-py client on it."""

import threading

from django.core.cache import caches


def test_every_cache_object_of_a_process_shares_one_redis_pool(needs_redis):
    seen = []

    def in_a_thread():
        cache = caches["default"]  # Django makes each thread (and async context) its own object
        cache.set("pool-check", "shared", timeout=10)
        seen.append((cache, cache._cache._get_connection_pool(write=False), cache._cache.get_client(write=True)))

    threads = [threading.Thread(target=in_a_thread) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    objects, pools = {id(cache) for cache, _, _ in seen}, {id(pool) for _, pool, _ in seen}
    assert len(objects) == 3 and len(pools) == 1  # three cache objects, one pool of connections
    clients = {id(client) for _, _, client in seen}
    assert len(clients) == 1  # and one client on it: building one per operation cost more than the trip
    assert caches["default"].get("pool-check") == "shared"
