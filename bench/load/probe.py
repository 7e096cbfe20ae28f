"""The production ASGI application, plus a count of the SQL queries this process runs.

``daphne bench.load.probe:application`` serves exactly ``config.asgi.application``;
each new database connection gets an execute wrapper that counts statements, and a
daemon thread writes the running total to ``$BENCH_PROBE_DIR/queries-<pid>.txt``
once a second, so the harness can divide queries by actions without touching the app.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from pathlib import Path

from config.asgi import application  # noqa: F401  (sets Django up)
from django.db.backends.signals import connection_created

_count = itertools.count()
_total = [0]
_lock = threading.Lock()


def _counter(execute, sql, params, many, context):
    with _lock:
        _total[0] += 1
    return execute(sql, params, many, context)


def _on_connection(sender, connection, **kwargs):
    if _counter not in connection.execute_wrappers:
        connection.execute_wrappers.append(_counter)


connection_created.connect(_on_connection, weak=False)


def _writer(path: Path) -> None:
    while True:
        time.sleep(1.0)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(str(_total[0]))
        tmp.replace(path)


_dir = os.environ.get("BENCH_PROBE_DIR")
if _dir:
    threading.Thread(target=_writer, args=(Path(_dir) / f"queries-{os.getpid()}.txt",), daemon=True).start()

