"""Count this process's SQL statements and the bytes it hands to the channel layer (Redis),
written to ``$BENCH_PROBE_DIR`` once a second.

Each new database connection gets an execute wrapper that counts statements; the channel
layers' ``serialize`` (called once for every message that goes to Redis: per receiving
channel with ``RedisChannelLayer``, per publish with ``RedisPubSubChannelLayer``) is wrapped
to add up the bytes. A daemon thread writes the running totals to
``queries-<role>-<pid>.txt`` and ``redis-bytes-<role>-<pid>.txt``, so the harness can divide
them by actions and table changes without touching the app.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from django.db.backends.signals import connection_created

_totals = {"queries": 0, "redis-bytes": 0}
_lock = threading.Lock()


def _counter(execute, sql, params, many, context):
    with _lock:
        _totals["queries"] += 1
    return execute(sql, params, many, context)


def _on_connection(sender, connection, **kwargs):
    if _counter not in connection.execute_wrappers:
        connection.execute_wrappers.append(_counter)


def _count_serialized_bytes() -> None:
    from channels_redis.core import RedisChannelLayer
    from channels_redis.pubsub import RedisPubSubChannelLayer

    for layer_class in (RedisChannelLayer, RedisPubSubChannelLayer):
        serialize = layer_class.serialize
        if getattr(serialize, "counted", False):
            continue

        def counted(self, message, serialize=serialize):
            data = serialize(self, message)
            with _lock:
                _totals["redis-bytes"] += len(data)
            return data

        counted.counted = True
        layer_class.serialize = counted


def start_counting(role: str) -> None:
    """From now on, count this process's statements and channel-layer bytes (``role``: "web" or "worker")."""
    directory = os.environ.get("BENCH_PROBE_DIR")
    if not directory:
        return
    connection_created.connect(_on_connection, weak=False, dispatch_uid="bench-query-counter")
    _count_serialized_bytes()
    threading.Thread(target=_write, args=(Path(directory), role), daemon=True).start()


def _write(directory: Path, role: str) -> None:
    while True:
        time.sleep(1.0)
        for name, total in list(_totals.items()):
            path = directory / f"{name}-{role}-{os.getpid()}.txt"
            tmp = path.with_suffix(".tmp")
            tmp.write_text(str(total))
            tmp.replace(path)
