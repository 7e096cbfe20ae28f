"""Count the SQL statements this process runs, written to ``$BENCH_PROBE_DIR`` once a second.

Each new database connection gets an execute wrapper that counts statements; a
daemon thread writes the running total to ``queries-<role>-<pid>.txt``, so the
harness can divide statements by actions without touching the app.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from django.db.backends.signals import connection_created

_total = [0]
_lock = threading.Lock()


def _counter(execute, sql, params, many, context):
    with _lock:
        _total[0] += 1
    return execute(sql, params, many, context)


def _on_connection(sender, connection, **kwargs):
    if _counter not in connection.execute_wrappers:
        connection.execute_wrappers.append(_counter)


def start_counting(role: str) -> None:
    """From now on, count this process's statements (``role``: "web" or "worker")."""
    directory = os.environ.get("BENCH_PROBE_DIR")
    if not directory:
        return
    connection_created.connect(_on_connection, weak=False, dispatch_uid="bench-query-counter")
    path = Path(directory) / f"queries-{role}-{os.getpid()}.txt"
    threading.Thread(target=_write, args=(path,), daemon=True).start()


def _write(path: Path) -> None:
    while True:
        time.sleep(1.0)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(str(_total[0]))
        tmp.replace(path)
