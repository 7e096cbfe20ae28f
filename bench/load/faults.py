"""kill -9 a web process or the celery worker at random moments during play, then restart it."""

from __future__ import annotations

import asyncio
import random
import time


def fault_task(
    stack,
    *,
    count: int,
    every: tuple[float, float] = (3.0, 8.0),
    down: tuple[float, float] = (0.3, 2.0),
    seed: int = 7,
    targets: list[str] | None = None,
    log=print,
):
    """An async callable for ``session.play(fault_task=...)``: ``count`` kill -9 + restart cycles."""
    rng = random.Random(seed)
    names = targets or [*[p.name for p in stack.web_procs], "worker"]
    events: list[dict] = []

    async def run(harness) -> list[dict]:
        loop = asyncio.get_running_loop()
        for i in range(count):
            await harness.sleep(rng.uniform(*every))
            if harness.stop.is_set():
                break
            name = names[i % len(names)] if i < len(names) else rng.choice(names)
            t0 = time.monotonic()
            await loop.run_in_executor(None, stack.procs[name].kill9)
            await asyncio.sleep(rng.uniform(*down))
            await loop.run_in_executor(None, stack.restart, name)
            events.append({"n": i + 1, "killed": name, "back_after_s": round(time.monotonic() - t0, 2)})
            log(f"  fault {i + 1}/{count}: kill -9 {name}, back after {time.monotonic() - t0:.1f}s")
        return events

    run.events = events
    return run
