"""One run of bots against a running stack: play until a hand count or a time limit, then drain.

Drain: every bot asks to sit out (it plays its current hand to the end), so
no new hand starts; the run then waits until no hand is running at any bench
table. A hand still running after the drain timeout is a stuck table.
"""

from __future__ import annotations

import asyncio
import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from .bots import Bot, Harness, Profile
from .cpu import CpuMeter, per_action, server_over_bots
from .report import percentiles, read_query_total, windows
from .stack import HOST


class Db:
    """ORM calls from the event loop, on one dedicated thread (one connection, closed at the end)."""

    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-db")

    async def run(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.pool, _fresh, fn, args)

    def close(self) -> None:
        from django.db import connections

        self.pool.submit(connections.close_all).result(10)
        self.pool.shutdown(wait=True)


async def stop_bots(harness: Harness, bots: list, tasks: list[asyncio.Task], db: Db) -> None:
    """The end of a run: the bots' sockets closed on purpose (not counted as lost), their tasks
    cancelled and waited for, the database threads shut."""
    harness.stop.set()
    for bot in bots:
        if bot.ws is not None:
            bot.ws.on_purpose = True
            bot.ws.abort()
    for task in tasks:
        task.cancel()
    _, pending = await asyncio.wait(tasks, timeout=30)
    if pending:  # a bot stuck past its cancellation must not hold the run's figures
        print(f"  {len(pending)} bot tasks still running 30 s after they were cancelled")
    db.close()


def _fresh(fn, args):
    """Call ``fn`` on a usable connection: one broken by a database restart is replaced."""
    from django.db import close_old_connections

    close_old_connections()
    return fn(*args)


def table_counts(table_ids: list[int], overdue_after: float = 10.0) -> dict:
    from django.db.models import Sum
    from django.utils import timezone

    from tables.models import Hand, Table

    hands = Hand.objects.filter(table_id__in=table_ids)
    return {
        "complete": hands.filter(state=Hand.State.COMPLETE).count(),
        "running": hands.filter(state=Hand.State.RUNNING).count(),
        "overdue": hands.filter(
            state=Hand.State.RUNNING, turn_deadline__lt=timezone.now() - timedelta(seconds=overdue_after)
        ).count(),
        "versions": Table.objects.filter(pk__in=table_ids).aggregate(v=Sum("version"))["v"] or 0,
        "sequences": hands.aggregate(s=Sum("sequence"))["s"] or 0,
    }


def running_hands_detail(table_ids: list[int]) -> list[str]:
    """The hands still running after the drain whose turn is due: a hand dealt between the
    drain's last count and this read (a sit-out still on its way) is playing, not stuck."""
    from django.db.models import Q
    from django.utils import timezone

    from tables.models import Hand

    due = Q(turn_deadline__isnull=True) | Q(turn_deadline__lte=timezone.now())
    return [
        f"table {h.table_id} hand #{h.number} seq {h.sequence} turn seat {h.turn_seat} deadline {h.turn_deadline}"
        for h in Hand.objects.filter(due, table_id__in=table_ids, state=Hand.State.RUNNING)
    ]


def _ratio(part: int | None, whole: int) -> float | None:
    return round(part / whole, 1) if part and whole else None


@dataclass
class PlayResult:
    seconds: float = 0.0
    hands: int = 0
    actions: int = 0
    changes: int = 0
    tables: int = 0
    pace: float | None = None  # seconds per action per table the bots were asked to keep (None: as fast as they can)
    web_queries: int | None = None  # SQL statements the daphne processes ran in the measured window
    worker_queries: int | None = None  # ... and the celery worker (hand starts, timeouts)
    redis_bytes: int | None = None  # bytes every server process handed to the channel layer in the window
    cpu_ms: dict = field(default_factory=dict)  # server CPU over the window per process kind (bench.load.cpu)
    machine: dict = field(default_factory=dict)
    stats: object = None
    max_overdue_seen: int = 0
    stuck: list[str] = field(default_factory=list)
    faults: list[dict] = field(default_factory=list)
    drain_seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)  # those of the measured window, not of the drain
    # (sent at, latency) of every action sent in the window and served by the end of the drain,
    # and when each one sent in it and never shown everywhere was sent (monotonic seconds)
    samples: list[tuple[float, float]] = field(default_factory=list)
    unresolved_sent: list[float] = field(default_factory=list)
    started_at: float = 0.0  # the measured window's start (monotonic)

    def summary(self) -> dict:
        s = self.stats
        lat = percentiles([x * 1000 for x in self.latencies])
        end = self.started_at + self.seconds
        by_ten = windows(self.samples, start=self.started_at, end=end, width=10, unresolved_sent=self.unresolved_sent)
        minutes = self.seconds / 60 if self.seconds else 1
        asked = round(self.tables * self.seconds / self.pace) if self.pace and self.seconds else None
        served = len(self.latencies)  # actions applied and shown on every screen of their table
        cpu = per_action(self.cpu_ms, served)
        return {
            "seconds": round(self.seconds, 1),
            "actions_asked": asked,
            "actions_served": served,
            "served_ratio": round(served / asked, 3) if asked else None,
            "served_per_second": round(served / self.seconds, 1) if self.seconds else 0,
            "cpu_ms": self.cpu_ms,
            "cpu_ms_per_action": cpu,
            "server_over_bots": server_over_bots(cpu),
            "machine": self.machine,
            "redis_bytes": self.redis_bytes,
            "redis_kb_per_change": round(self.redis_bytes / self.changes / 1024, 1)
            if self.redis_bytes is not None and self.changes
            else None,
            "hands": self.hands,
            "hands_per_minute": round(self.hands / minutes, 1),
            "actions_sent": self.actions,
            "actions_per_second": round(self.actions / self.seconds, 1) if self.seconds else 0,
            "table_changes": self.changes,
            "latency_ms": lat,
            "latency_samples": len(self.latencies),
            "latency_unresolved": s.unresolved,
            # Where in the window the tail is: the p50 and p99 of each 10 s of it.
            "latency_windows": [
                {key: row[key] for key in ("from_s", "served", "unresolved", "p50", "p99")} for row in by_ten
            ],
            "web_queries": self.web_queries,
            "worker_queries": self.worker_queries,
            "web_queries_per_action": _ratio(self.web_queries, self.actions),
            "queries_per_action": _ratio(self.web_queries + self.worker_queries, self.actions)
            if self.web_queries is not None and self.worker_queries is not None
            else None,
            "queries_per_change": _ratio((self.web_queries or 0) + (self.worker_queries or 0), self.changes),
            "double_submits": s.doubles,
            "silent_turns": s.silent,
            "disconnects": s.disconnects,
            "connects": s.connects,
            "connect_failures": s.connect_failures,
            "handshake_ms": percentiles(s.handshakes),
            "unexpected_closes": s.unexpected_closes,
            "comebacks": s.comebacks,
            "top_ups": s.top_ups,
            "tried_again": s.retries,
            "chat_messages": s.chats,
            "frames_received": s.frames,
            "refusals": dict(s.refusals.most_common()),
            "busy_refusals": s.backoffs.closes[1013],
            **s.backoffs.figures(),
            "max_overdue_hands_seen": self.max_overdue_seen,
            "stuck_after_drain": self.stuck,
            "drain_seconds": round(self.drain_seconds, 1),
            "faults": self.faults,
        }


async def play(
    *,
    accounts,
    ports: list[int],
    host: str = HOST,
    table_ids: list[int],
    profile: Profile,
    duration: float,
    hands: int | None = None,
    drain_timeout: float = 60.0,
    seed: int = 1,
    probe_dir: Path | None = None,
    fault_task=None,
    warmup: float = 0.0,
    pace: float | None = None,
    cpu_meter: CpuMeter | None = None,
    route: str = "table",
    log=print,
) -> PlayResult:
    """Connect the bots, play, drain, disconnect. Bounded by ``duration`` + ``drain_timeout`` (+ connect time)."""
    harness = Harness()
    rng = random.Random(seed)
    db = Db()
    result = PlayResult(stats=harness.stats, tables=len(table_ids), pace=pace)
    harness.db = db
    bots = [Bot(a, ports, harness, profile, random.Random(rng.random()), route, host) for a in accounts]
    tasks = [asyncio.ensure_future(b.run()) for b in bots]
    tasks.append(asyncio.ensure_future(harness.expire_loop()))
    try:
        if warmup:
            await harness.sleep(warmup)
            harness.stats.clear_samples()
        start_counts = await harness.db_retrying(table_counts, table_ids)
        counters = [(role, counter) for role in ("web", "worker") for counter in ("queries", "redis-bytes")]
        q0 = {key: read_query_total(probe_dir, *key) for key in counters} if probe_dir else None
        if cpu_meter is not None:
            await asyncio.get_running_loop().run_in_executor(None, cpu_meter.start)
        t0 = result.started_at = time.monotonic()
        fault = asyncio.ensure_future(fault_task(harness)) if fault_task else None
        last_log = t0
        while time.monotonic() - t0 < duration:
            await harness.sleep(1.0)
            counts = await harness.db_retrying(table_counts, table_ids)
            result.max_overdue_seen = max(result.max_overdue_seen, counts["overdue"])
            done = counts["complete"] - start_counts["complete"]
            if time.monotonic() - last_log > 10:
                last_log = time.monotonic()
                log(
                    f"  {time.monotonic() - t0:5.0f}s hands {done} actions {harness.stats.actions} "
                    f"running {counts['running']} overdue {counts['overdue']} lat-samples {len(harness.stats.latencies)}"
                )
            if hands is not None and done >= hands and (fault is None or fault.done()):
                break
        if fault is not None:
            if not fault.done():
                fault.cancel()
            try:
                result.faults = await fault
            except asyncio.CancelledError:
                result.faults = getattr(fault_task, "events", [])
        result.seconds = time.monotonic() - t0
        if cpu_meter is not None:
            await asyncio.get_running_loop().run_in_executor(None, cpu_meter.stop)
            result.cpu_ms, result.machine = cpu_meter.milliseconds(), cpu_meter.machine()
        result.latencies = list(harness.stats.latencies)
        result.actions = harness.stats.actions
        end_counts = await harness.db_retrying(table_counts, table_ids)
        result.hands = end_counts["complete"] - start_counts["complete"]
        result.changes = end_counts["versions"] - start_counts["versions"]
        if probe_dir:
            await asyncio.sleep(1.2)  # the probes write their totals once a second
            q1 = {key: read_query_total(probe_dir, *key) for key in counters}
            result.web_queries = q1["web", "queries"] - q0["web", "queries"]
            result.worker_queries = q1["worker", "queries"] - q0["worker", "queries"]
            result.redis_bytes = sum(q1[key] - q0[key] for key in counters if key[1] == "redis-bytes")
        # Drain: everyone sits out after the current hand; every running hand must finish.
        harness.draining.set()
        for bot in bots:
            if bot.ws is not None and not bot.drained:
                bot.drained = True
                await bot.send({"action": "sit_out"})
        d0 = time.monotonic()
        while time.monotonic() - d0 < drain_timeout:
            counts = await harness.db_retrying(table_counts, table_ids)
            if counts["running"] == 0:
                break
            await harness.sleep(0.5)
        result.drain_seconds = time.monotonic() - d0
        # The window's actions by the time they were sent, with those shown (or given up on) since it ended.
        end, stats = t0 + result.seconds, harness.stats
        result.samples = [(at, s) for at, s in zip(stats.sent, stats.latencies, strict=True) if t0 <= at < end]
        result.unresolved_sent = [at for at in stats.unresolved_sent if t0 <= at < end]
        result.stuck = await harness.db_retrying(running_hands_detail, table_ids)
    finally:
        await stop_bots(harness, bots, tasks, db)
    return result
