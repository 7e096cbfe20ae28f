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
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .bots import Bot

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


def storm_task(stack, *, target: str = "web0", after: float = 10.0, restart_after: float = 1.0, log=print):
    """An async callable for ``session.play(fault_task=...)``, the reconnect storm: ``after``
    seconds into the window, kill -9 ``target`` with every socket on it, start it again
    ``restart_after`` seconds after the kill, and measure from the kill the seconds until every
    one of those sockets is open again and has shown its snapshot, then until every screen has
    caught up with its table's version. Its one event is filled in as it goes (a run that ends
    first keeps what was measured); ``killed_at``/``restarted_at`` are monotonic times."""
    proc = stack.procs[target]
    names = {p.port: name for name, p in stack.procs.items() if p.port is not None}
    events: list[dict] = []

    def restart() -> float:
        stack.restart(target)  # returns once it accepts connections again
        return time.monotonic()

    async def run(harness) -> list[dict]:
        loop = asyncio.get_running_loop()
        await harness.sleep(after)
        if harness.stop.is_set():
            return events
        connected = [bot for monitor in harness.monitors.values() for bot in list(monitor.sockets)]
        on_it = [bot for bot in connected if bot.port == proc.port]
        killed = time.monotonic()
        event: dict[str, object] = {
            "n": 1,
            "fault": target,
            "killed_at": killed,
            "sockets": len(on_it),
            "sockets_connected": len(connected),
        }
        event.update(reconnected=0, reconnected_s=None, caught_up_s=None)
        events.append(event)
        await loop.run_in_executor(None, proc.kill9)
        log(f"  storm: kill -9 {target} with {len(on_it)} of {len(connected)} sockets")
        await harness.sleep(killed + restart_after - time.monotonic())
        restarted = event["restarted_at"] = time.monotonic()
        event["restart_at_s"] = round(restarted - killed, 2)
        ready = loop.run_in_executor(None, restart)
        back: dict[Bot, float] = {}  # bot -> when its new socket showed its snapshot
        while True:
            for bot in on_it:
                if bot not in back and bot.ws is not None and bot.connected_at > killed and bot.shown_at is not None:
                    back[bot] = bot.shown_at
            event["reconnected"] = len(back)
            if len(back) == len(on_it) or time.monotonic() - killed > CATCH_UP_LIMIT:
                break
            await asyncio.sleep(0.05)
        landed = dict(Counter(names.get(bot.port, str(bot.port)) for bot in back))
        event["reconnected_to"] = landed  # a bot refused by the dead daphne tries the next one
        times = sorted(moment - killed for moment in back.values())
        if times:  # how the sockets came back: the first, half, nine in ten, the last
            event["reconnected_quantiles_s"] = {
                name: round(times[min(len(times) - 1, int(q * len(times)))], 2)
                for name, q in (("first", 0), ("p50", 0.5), ("p90", 0.9), ("last", 1))
            }
        if len(back) == len(on_it):
            event["reconnected_s"] = round(max(back.values(), default=killed) - killed, 2)
            log(f"  storm: {len(back)} sockets back {event['reconnected_s']}s after the kill ({landed})")
            if await catch_up_seconds(harness, list(harness.monitors), log) is not None:
                event["caught_up_s"] = round(time.monotonic() - killed, 2)
        else:
            log(f"  storm: only {len(back)} of {len(on_it)} sockets back within {CATCH_UP_LIMIT}s")
        event["back_after_s"] = round(await ready - killed, 2)
        log(
            f"  storm: {target} accepting again {event['back_after_s']}s after the kill, "
            f"every screen caught up {event['caught_up_s']}s after the kill"
        )
        return events

    run.events = events
    run.planned = 1
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
