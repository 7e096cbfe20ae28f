"""Figures: percentiles, server-side SQL counts, the chip audit, and the printed/JSON report."""

from __future__ import annotations

import contextlib
import json
import statistics
from collections.abc import Sequence
from pathlib import Path

from .latency import EXPIRE_AFTER


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"p50": None, "p95": None, "p99": None, "max": None, "mean": None}
    ordered = sorted(values)

    def pick(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {
        "p50": pick(0.50),
        "p95": pick(0.95),
        "p99": pick(0.99),
        "max": round(ordered[-1], 1),
        "mean": round(statistics.fmean(ordered), 1),
    }


def span(
    samples: Sequence[tuple[float, float]],
    *,
    start: float,
    end: float,
    unresolved_sent: Sequence[float] = (),
    unresolved_s: float = EXPIRE_AFTER,
    asked: float | None = None,
) -> dict:
    """The actions sent in ``[start, end)``, of ``samples`` (sent at, latency in seconds) and of
    ``unresolved_sent`` (sent at, never shown on every screen of their table), on the same
    clock: how many were served, how many never were, and the latency p50/p99 in ms, where an
    unresolved action counts as ``unresolved_s`` (it was shown after that at the earliest, if
    ever). ``asked``: the actions asked in the span, for the served share."""
    chosen = [latency for at, latency in samples if start <= at < end]
    lost = sum(start <= at < end for at in unresolved_sent)
    lat = percentiles([x * 1000 for x in [*chosen, *[unresolved_s] * lost]])
    figures = {"served": len(chosen), "unresolved": lost, "p50": lat["p50"], "p99": lat["p99"]}
    if asked is not None:
        figures["asked"] = round(asked)
        figures["served_ratio"] = round(len(chosen) / asked, 3) if asked else None
    return figures


def windows(
    samples: Sequence[tuple[float, float]],
    *,
    start: float,
    end: float,
    width: float,
    unresolved_sent: Sequence[float] = (),
    asked_per_second: float | None = None,
) -> list[dict]:
    """``span`` for consecutive windows of ``width`` seconds from ``start`` to ``end`` (the last
    one may be shorter), each with its bounds in seconds after ``start``."""
    rows = []
    edge = start
    while edge < end - 1e-9:
        upper = min(edge + width, end)
        rows.append(
            {
                "from_s": round(edge - start, 2),
                "to_s": round(upper - start, 2),
                **span(
                    samples,
                    start=edge,
                    end=upper,
                    unresolved_sent=unresolved_sent,
                    asked=asked_per_second * (upper - edge) if asked_per_second is not None else None,
                ),
            }
        )
        edge = upper
    return rows


def back_under(rows: list[dict], bound_ms: float, not_before: float = 0.0) -> float | None:
    """Seconds after the windows' start until the end of the first window that ends at
    ``not_before`` or later and whose p99 is at most ``bound_ms`` (a window with no action in it
    does not count); None: none is."""
    for row in rows:
        if row["to_s"] >= not_before and row["p99"] is not None and row["p99"] <= bound_ms:
            return row["to_s"]
    return None


def stays_under(rows: list[dict], bound_ms: float) -> float | None:
    """Seconds after the windows' start from which every later window's p99 is at most
    ``bound_ms`` (empty windows do not break the run of them); None: the last one is over."""
    since = None
    for row in rows:
        if row["p99"] is not None and row["p99"] > bound_ms:
            since = None
        elif row["p99"] is not None and since is None:
            since = row["from_s"]
    return since


def read_query_total(directory: Path, role: str, counter: str = "queries") -> int:
    """Sum of the counters (``counter``: "queries" or "redis-bytes") the ``role`` ("web" or
    "worker") processes write (bench.load.query_counter); a killed process's file keeps its
    last total."""
    total = 0
    for path in Path(directory).glob(f"{counter}-{role}-*.txt"):
        with contextlib.suppress(OSError, ValueError):
            total += int(path.read_text() or 0)
    return total


def audit() -> dict:
    from cashier.audit import run_audit

    report = run_audit()
    return {
        "ok": report.ok,
        "problems": report.problems[:20],
        "accounts": report.accounts_checked,
        "chips_issued": report.chips_issued,
    }


def measure_queries_in_process(players: int = 6) -> dict:
    """SQL statements of one action, counted with CaptureQueriesContext in this process over one
    whole hand on a fresh table: ``services.act`` including what runs when it commits (rendering
    every screen of the table once and publishing them), which is all the database work an
    action costs while every socket of the table is a seated player's."""
    import uuid

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables import services
    from tables.models import Hand
    from tables.selectors.hands import rebuild

    from .world import make_table, seat_bots

    tag = uuid.uuid4().hex[:6]
    table = make_table(f"bench-queries-{tag}", action_seconds=300, countdown_seconds=60)
    users = seat_bots(table, players, f"benchq{tag}")
    by_seat = dict(enumerate(users, start=1))
    services.start_hand_if_due(table_id=table.pk)
    acts = []
    for _ in range(60):
        hand = Hand.objects.get(table=table, number=1)
        if hand.state != Hand.State.RUNNING:
            break
        viewer = by_seat[hand.turn_seat]
        kind = "check" if rebuild(hand).legal_actions().can_check else "call"
        with CaptureQueriesContext(connection) as ctx:
            services.act(table_id=table.pk, user=viewer, kind=kind, amount=None, sequence=hand.sequence)
        acts.append(len(ctx))
    for user in users:  # leave: the table holds no chips afterwards
        services.leave(user=user, table_id=table.pk)
    services.close_table(table_id=table.pk)
    return {
        "act_queries": {"min": min(acts), "max": max(acts), "mean": round(statistics.fmean(acts), 1)},
        "actions_measured": len(acts),
    }


def write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, default=str))


def show(title: str, data: dict) -> str:
    return f"== {title} ==\n" + json.dumps(data, indent=2, default=str)
