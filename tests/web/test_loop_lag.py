"""The web process's event-loop lag: measured from the first room socket, once per loop."""

from __future__ import annotations

import asyncio
import time

from operations import metrics
from tables.realtime import loop_lag


def _probes() -> tuple[float, float]:
    """(probes measured, their lags added up in seconds) so far in this process."""
    samples = {sample.name: sample.value for sample in metrics.LOOP_LAG_SECONDS.collect()[0].samples}
    return samples["omaha_loop_lag_seconds_count"], samples["omaha_loop_lag_seconds_sum"]


def test_a_loop_held_up_is_measured_as_late_as_it_was():
    async def held_up() -> tuple[float, float]:
        before = _probes()
        loop_lag.ensure_probing()
        time.sleep(0.4)  # the loop held: the probe due at 0.25 s runs at 0.4 s or later
        await asyncio.sleep(0.02)
        after = _probes()
        return after[0] - before[0], after[1] - before[1]

    probes, lagged = asyncio.run(held_up())
    assert probes >= 1
    assert lagged >= 0.14


def test_probing_starts_once_per_loop():
    async def probing(seconds: float, starts: int) -> float:
        before = _probes()[0]
        for _ in range(starts):
            loop_lag.ensure_probing()
        await asyncio.sleep(seconds)
        return _probes()[0] - before

    # One chain of probes however often it is asked for: 0.6 s holds two (three on a slow
    # machine's edge), never the four of two chains.
    assert 1 <= asyncio.run(probing(0.6, starts=3)) <= 3
    # A new loop gets a chain of its own (the old loop's ended with it).
    assert 1 <= asyncio.run(probing(0.6, starts=1)) <= 3
