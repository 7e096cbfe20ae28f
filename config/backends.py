"""The channel layer and the cache, as settings dictionaries: on Redis in production, in this
process's memory on the embedded default (config/settings.py reads the URLs)."""

from __future__ import annotations

from typing import Any


def channel_layers(redis_url: str, kind: str) -> dict[str, Any]:
    """CHANNEL_LAYERS for ``redis_url`` (empty: the in-process layer, which only reaches consumers
    inside this process, all the embedded default has). ``kind`` "pubsub": a message to a group
    is published once and every process subscribed to it hands it to its own sockets
    (channels-redis's pub/sub layer); "lists": the list layer, which stores a copy for every
    socket of the group."""
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    if kind == "lists":
        return {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                # redis-py's default 5 s read timeout equals channels-redis's blocking
                # receive: an idle socket would fail every 5 s without a longer one.
                # redis-py refuses a 101st concurrent command per pool by default; hundreds
                # of sockets joining their groups at once (a restart) need more.
                "CONFIG": {"hosts": [{"address": redis_url, "socket_timeout": 10, "max_connections": 1000}]},
            }
        }
    from config.channel_serializer import FORMAT  # registers it

    return {
        "default": {
            "BACKEND": "config.pubsub_layer.PubSubChannelLayer",
            # Pub/sub channels are one namespace for every database of a Redis server:
            # the database number keeps two rooms (or test runs) on one server apart.
            "CONFIG": {
                "hosts": [{"address": redis_url}],
                "prefix": "asgi" + (redis_url.rstrip("/").rsplit("/", 1)[-1] or "0") + ".",
                "serializer_format": FORMAT,
            },
        }
    }


def caches(cache_url: str) -> dict[str, Any]:
    """CACHES: short-lived counters (rate limits, open sockets) in Redis at ``cache_url``, or in
    this process's memory when it is empty."""
    if not cache_url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "omaha"}}
    return {
        "default": {
            "BACKEND": "config.cache.SharedPoolRedisCache",  # one connection pool per process
            "LOCATION": cache_url,
            "KEY_PREFIX": "omaha",
            # Short timeouts: counters are read on the event loop, which must not wait long.
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
    }
