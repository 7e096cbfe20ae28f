"""The server process's garbage collector: its pauses measured, and what the process loaded
at start kept out of them.

CPython's collector stops the whole process while it runs, and a full collection (the oldest
generation) walks every object the collector tracks: in a daphne process holding a thousand
sockets and the screens it rendered lately, a few hundred thousand objects, and pauses of a
few hundred milliseconds that every socket of the process waits out (the load benchmark's
p99 at 200 tables was these). What the process loads at start (Django, the apps, the
templates: about 145,000 objects) lives as long as the process, so it is moved out of the
collector's sight once loaded (``gc.freeze``): each full collection then walks only what the
process made since.

The thresholds (``settings.WEB_GC_THRESHOLDS``, 1000,20,2000 by default) make a full
collection a matter of minutes rather than seconds: at 200 tables on two cores CPython's own
(700,10,10) ran one about every 20 s per process, pauses of 180 ms at the median, and the
benchmark's p99 was 202 ms; with these, none in the measured minute and a p99 of 154 ms
(bench/load/README.md). The garbage that only a full collection frees (objects in cycles:
a few hundred per collection here) waits that much longer.

Each pause is observed in ``omaha_gc_pause_seconds`` (by generation), so an operator sees
them among the action times they lengthen.
"""

from __future__ import annotations

import gc
import time

from . import metrics

_started: list[float] = [0.0]


def _observe(phase: str, info: dict) -> None:
    """A collection runs wherever the process is when it starts, at the bottom of a deep stack
    too (a hostile frame's nesting being refused): a pause with no room left there to be
    observed is not, rather than a traceback on the process's error output."""
    if phase == "start":
        _started[0] = time.perf_counter()
        return
    try:  # noqa: SIM105 - not contextlib.suppress: its __exit__ is one more call, with no room left for it
        metrics.GC_PAUSE_SECONDS.labels(str(info["generation"])).observe(time.perf_counter() - _started[0])
    except RecursionError:
        pass


def measure() -> None:
    """Observe every collection's pause in this process (once)."""
    if _observe not in gc.callbacks:
        gc.callbacks.append(_observe)


def freeze_what_start_loaded() -> int:
    """Collect once, then keep every object alive now out of later collections (the process's
    code and settings, loaded for good). Returns how many objects were set aside."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def tune(thresholds: tuple[int, ...]) -> None:
    """Set the collector's thresholds (``settings.WEB_GC_THRESHOLDS``; empty: left as they are)."""
    if thresholds:
        gc.set_threshold(*thresholds)
