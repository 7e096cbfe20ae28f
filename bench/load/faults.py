"""Faults during play, at random moments: kill -9 of a web process or the celery worker (then
restarted), kill -9 of a private Redis (restarted empty), a private PostgreSQL restarted with
``pg_ctl -m fast`` or after kill -9 of its postmaster.

After each fault, once the service is back, the run measures how long until every screen has
caught up: the versions of the tables are read, and every bot connected then must be shown
each of its table's version at least, by the frames it receives (``Bot.version``).
"""

from __future__ import annotations

import asyncio
import random
import time

CATCH_UP_LIMIT = 30.0  # seconds the run waits for the screens before it counts them stuck


def fault_plan(*, kills: int, kill_targets: list[str], redis_restarts: int, postgres_restarts: int, rng) -> list[str]:
    """The faults in the order they happen: kills cycle through their targets, PostgreSQL
    restarts alternate between a fast shutdown and a kill -9 of the postmaster, and the kinds
    are shuffled together."""
    plan = [kill_targets[i % len(kill_targets)] for i in range(kills)]
    plan += ["redis"] * redis_restarts
    plan += ["postgres-fast" if i % 2 == 0 else "postgres-kill9" for i in range(postgres_restarts)]
    rng.shuffle(plan)
    return plan


def fault_task(
    stack,
    *,
    count: int = 0,
    every: tuple[float, float] = (3.0, 8.0),
    down: tuple[float, float] = (0.3, 2.0),
    seed: int = 7,
    targets: list[str] | None = None,
    redis=None,
    postgres=None,
    redis_restarts: int = 0,
    postgres_restarts: int = 0,
    table_ids: list[int] | None = None,
    log=print,
):
    """An async callable for ``session.play(fault_task=...)``: the planned faults, each then
    recovered from, with the seconds until every screen caught up."""
    rng = random.Random(seed)
    names = targets or [*[p.name for p in stack.web_procs], "worker"]
    plan = fault_plan(
        kills=count, kill_targets=names, redis_restarts=redis_restarts, postgres_restarts=postgres_restarts, rng=rng
    )
    events: list[dict] = []

    def inject(name: str) -> None:
        if name == "redis":
            redis.restart_empty()
        elif name == "postgres-fast":
            postgres.restart_fast()
        elif name == "postgres-kill9":
            postgres.restart_after_kill9()
        else:
            stack.procs[name].kill9()
            time.sleep(rng.uniform(*down))
            stack.restart(name)

    async def run(harness) -> list[dict]:
        loop = asyncio.get_running_loop()
        for i, name in enumerate(plan):
            await harness.sleep(rng.uniform(*every))
            if harness.stop.is_set():
                break
            t0 = time.monotonic()
            await loop.run_in_executor(None, inject, name)
            back = time.monotonic() - t0
            caught_up = await catch_up_seconds(harness, table_ids or [], log)
            events.append({"n": i + 1, "fault": name, "back_after_s": round(back, 2), "caught_up_s": caught_up})
            log(f"  fault {i + 1}/{len(plan)}: {name}, back after {back:.1f}s, every screen right {caught_up}s later")
        return events

    run.events = events
    run.planned = len(plan)
    return run


async def catch_up_seconds(harness, table_ids: list[int], log=print) -> float | None:
    """Seconds from now until every bot connected to a table has been shown the version that
    table had now (None: not within CATCH_UP_LIMIT)."""
    t0 = time.monotonic()
    targets = None
    while time.monotonic() - t0 < CATCH_UP_LIMIT:
        if targets is None:
            targets = await harness.db_retrying(_versions, table_ids)
        behind = [
            bot
            for table_id, monitor in harness.monitors.items()
            for bot in list(monitor.sockets)
            if bot.version < targets.get(table_id, 0)
        ]
        if not behind:
            return round(time.monotonic() - t0, 2)
        await asyncio.sleep(0.1)
    log(f"  screens still behind after {CATCH_UP_LIMIT}s: {len(behind)} sockets")
    return None


def _versions(table_ids: list[int]) -> dict[int, int]:
    from tables.models import Table

    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))
