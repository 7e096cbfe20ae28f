"""The Redis cache with one connection pool per process.

Django keeps a cache object per thread and per async context, and each ``RedisCache`` opens
connections of its own: in a server process every socket (its session read, its socket
counts) and every worker thread made a new Redis connection, a TCP connect and a Redis client
each time. Here every cache object of a process shares one pool per server and options, as
the connections of the database and the channel layer are shared.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_pools: dict[tuple, object] = {}
_clients: dict[int, object] = {}
_lock = threading.Lock()


class SharedPoolRedisCacheClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pool_keys: dict[int, tuple] = {}  # server index -> its pool's key in ``_pools``

    def get_client(self, key=None, *, write=False):
        # Django makes a new redis-py client for every operation, and building one (its table
        # of response callbacks) cost more than the trip to Redis. A client only wraps its pool
        # and is safe to share between threads: one per pool.
        pool = self._get_connection_pool(write)
        client = _clients.get(id(pool))
        if client is None or client.connection_pool is not pool:
            client = _clients[id(pool)] = self._client(connection_pool=pool)
        return client

    def _get_connection_pool(self, write):
        index = self._get_connection_pool_index(write)
        # The pool's key, worked out once per client (its servers and options are set for good):
        # every operation of the cache asks for its pool.
        key = self._pool_keys.get(index)
        if key is None:
            options = tuple(sorted((name, repr(value)) for name, value in self._pool_options.items()))
            key = self._pool_keys[index] = (self._servers[index], options)
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                # redis-py's pool notices a fork (its pid) and opens the child's own connections.
                pool = _pools[key] = self._pool_class.from_url(self._servers[index], **self._pool_options)
        return pool


class SharedPoolRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = SharedPoolRedisCacheClient
