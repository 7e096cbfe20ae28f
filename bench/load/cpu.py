"""Server CPU time over a measured window, per process kind, read from ``/proc``.

Kinds: every stack process by its name without the digits (``web``, ``worker``, ``beat``;
a process and all the children in its process group), ``postgres`` (the backends connected
to the bench database, found in ``pg_stat_activity``), ``redis`` (the whole redis-server
process: it may serve other databases too, so on a shared machine this is an upper bound)
and ``bots`` (this harness process). A sampling thread reads every second, so a process
that starts or ends inside the window is counted for the part of it that it lived.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
Key = tuple[int, int]  # (pid, start time in ticks): a pid reused by a new process is another key


def read_cpu_ticks(pid: int) -> tuple[int, int, int] | None:
    """(user+system ticks, start time, process group) of ``pid``, or None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "
    return int(fields[11]) + int(fields[12]), int(fields[19]), int(fields[2])


def _all_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


class CpuMeter:
    """``start()`` at the window's start, ``stop()`` at its end, then ``milliseconds()`` per kind."""

    def __init__(
        self,
        *,
        groups: Callable[[], dict[str, list[int]]],
        database: str | None,
        redis_url: str | None,
        database_address: tuple[str, int | str] = ("127.0.0.1", 5432),
    ):
        self.groups = groups  # () -> {kind: process group ids}: the stack's processes lead their groups
        self.database = database
        self.database_address = database_address  # the PostgreSQL server whose backends are counted
        self.redis_pid = _redis_pid(redis_url) if redis_url else None
        self.first: dict[str, dict[Key, int]] = defaultdict(dict)
        self.last: dict[str, dict[Key, int]] = defaultdict(dict)
        self.window_start_ticks = 0
        self.started_at = self.stopped_at = 0.0
        self.machine_start = self.machine_end = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pg = None

    def start(self) -> None:
        self.window_start_ticks = _uptime_ticks()
        self.started_at, self.machine_start = time.monotonic(), machine_busy_ticks()
        self._sample(first=True)
        self._thread = threading.Thread(target=self._loop, daemon=True, name="bench-cpu")
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        self._sample()
        self.stopped_at, self.machine_end = time.monotonic(), machine_busy_ticks()
        if self._pg is not None:
            with contextlib.suppress(Exception):
                self._pg.close()

    def machine(self) -> dict[str, float]:
        """How busy the whole machine was over the window, and how much of it was not this run."""
        seconds = max(self.stopped_at - self.started_at, 1e-9)
        busy = (self.machine_end - self.machine_start) / TICKS_PER_SECOND
        ours = sum(self.milliseconds().values()) / 1000
        return {
            "cores": os.cpu_count() or 0,
            "busy_cores": round(busy / seconds, 2),
            "other_busy_cores": round(max(busy - ours, 0) / seconds, 2),
        }

    def milliseconds(self) -> dict[str, float]:
        used = {}
        for kind, last in self.last.items():
            ticks = sum(value - self.first[kind].get(key, 0) for key, value in last.items())
            used[kind] = round(ticks * 1000 / TICKS_PER_SECOND, 1)
        return used

    def _loop(self) -> None:
        while not self._stop.wait(1.0):
            with contextlib.suppress(Exception):
                self._sample()

    def _sample(self, first: bool = False) -> None:
        for kind, pids in self._pids_by_kind().items():
            for pid in pids:
                read = read_cpu_ticks(pid)
                if read is None:
                    continue
                ticks, started, _ = read
                key = (pid, started)
                if key not in self.first[kind]:
                    # Seen for the first time: at the start, or a process born in the window (counts from 0).
                    self.first[kind][key] = ticks if (first or started < self.window_start_ticks) else 0
                self.last[kind][key] = ticks

    def _pids_by_kind(self) -> dict[str, list[int]]:
        kinds: dict[str, list[int]] = defaultdict(list)
        leaders = {group: kind for kind, groups in self.groups().items() for group in groups}
        for pid in _all_pids():
            read = read_cpu_ticks(pid)
            if read is not None and read[2] in leaders:
                kinds[leaders[read[2]]].append(pid)
        kinds["bots"] = [os.getpid()]
        if self.redis_pid:
            kinds["redis"] = [self.redis_pid]
        if self.database:
            kinds["postgres"] = self._backend_pids()
        return kinds

    def _backend_pids(self) -> list[int]:
        import psycopg

        host, port = self.database_address
        try:
            if self._pg is None or self._pg.closed:
                self._pg = psycopg.connect(
                    f"host={host or '127.0.0.1'} port={port or 5432} user=postgres dbname=postgres", autocommit=True
                )
            rows = self._pg.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [self.database]
            ).fetchall()
        except psycopg.OperationalError:
            # The run restarts the server (``faults --postgres-restarts``): its backends ended with
            # it; the next sample connects again.
            self._pg = None
            return []
        return [pid for (pid,) in rows]


def _uptime_ticks() -> int:
    return int(float(Path("/proc/uptime").read_text().split()[0]) * TICKS_PER_SECOND)


def _redis_pid(url: str) -> int | None:
    import redis

    with contextlib.suppress(Exception):
        return int(redis.Redis.from_url(url).info("server")["process_id"])
    return None


def per_action(milliseconds: dict[str, float], actions: int) -> dict[str, float | None]:
    """CPU-ms per action for each kind, and ``server`` (every kind but the bots) and ``total``."""
    if not actions:
        return {}
    figures = {kind: round(ms / actions, 2) for kind, ms in sorted(milliseconds.items())}
    figures["server"] = round(sum(ms for kind, ms in milliseconds.items() if kind != "bots") / actions, 2)
    return figures


def server_over_bots(per_action_figures: dict[str, float | None]) -> float | None:
    """The server's CPU per action over the bots' (``per_action``'s figures). The bots do the same
    work for every action of the same code (they read the same frames, send the same actions),
    and their CPU moves with the machine's speed as the server's does: this ratio holds to about
    2 % from run to run of the same size and pace (100 tables at 2 s an action, 2026-12-07)
    where the server's own figure moves by up to 40 % on a shared machine, so it tells two
    versions of the room that send the same frames apart in a few runs. It is no gauge between
    versions whose frames differ (their bots do different work)."""
    server, bots = per_action_figures.get("server"), per_action_figures.get("bots")
    return round(server / bots, 2) if server and bots else None


def machine_busy_ticks() -> int:
    """Every core's busy time since boot (``/proc/stat``: all but idle and iowait)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields) - fields[3] - fields[4]
