"""The noisy neighbour: a busy-loop process pinned to one core, started and stopped by the run.

``python -m bench.load.hog CORE`` pins itself to ``CORE`` with ``os.sched_setaffinity`` and
spins until it is killed. ``hog_task`` is the fault task of the ``neighbour`` run: it starts
the hog some seconds into the measured window, stops it (by its PID, which leads its own
process group) after its time, and measures how long until every screen caught up after it.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from .cpu import TICKS_PER_SECOND, read_cpu_ticks
from .faults import catch_up_seconds
from .stack import Proc


def spin(core: int) -> None:
    os.sched_setaffinity(0, {core})
    while True:
        pass


def hog_task(*, after: float, seconds: float, core: int, log_dir: Path, log=print):
    """An async callable for ``session.play(fault_task=...)``: ``after`` seconds into the window
    start the hog on ``core``, stop it ``seconds`` later. Its one event has the core it was
    pinned to, the CPU seconds it got, whether it ran the whole time, and ``started_at`` /
    ``stopped_at`` (monotonic)."""
    events: list[dict] = []

    async def run(harness) -> list[dict]:
        await harness.sleep(after)
        if harness.stop.is_set():
            return events
        proc = Proc("hog", [sys.executable, "-m", "bench.load.hog", str(core)], dict(os.environ), log_dir / "hog.log")
        proc.start()
        assert proc.popen is not None
        pid, started = proc.popen.pid, time.monotonic()
        event: dict[str, object] = {"n": 1, "fault": "cpu-hog", "pid": pid, "core": core, "started_at": started}
        events.append(event)
        log(f"  neighbour: CPU hog pid {pid} on core {core} for {seconds}s")
        try:
            await harness.sleep(min(0.5, seconds))
            try:
                event["pinned_to"] = sorted(os.sched_getaffinity(pid))
            except OSError:
                event["pinned_to"] = None
            await harness.sleep(started + seconds - time.monotonic())
            event["ran_whole_time"] = proc.alive
            ticks = read_cpu_ticks(pid)
            event["cpu_s"] = round(ticks[0] / TICKS_PER_SECOND, 1) if ticks else None
        finally:
            proc.stop(timeout=2)  # SIGTERM, then SIGKILL, to the hog's own process group (= its PID)
            stopped = event["stopped_at"] = time.monotonic()
        event["seconds"] = round(stopped - started, 1)
        log(f"  neighbour: hog stopped after {event['seconds']}s, {event['cpu_s']} CPU-s on {event['pinned_to']}")
        event["caught_up_s"] = await catch_up_seconds(harness, list(harness.monitors), log)
        return events

    run.events = events
    run.planned = 1
    return run


if __name__ == "__main__":
    spin(int(sys.argv[1]))
