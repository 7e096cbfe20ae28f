"""``sweep``: the ``load`` run at several table counts, each on a fresh database and stack,
written as a Markdown table and a plot (served actions/s, p50 and p99 against tables).

A size that does not keep up is a figure, not a failure of the sweep. The sweep fails when a
run's chip audit fails, a hand is stuck after the drain or a process logged an error, and when
the room falls over past its saturation: the largest size (the sweep's overload point, 2x
the saturation size or more) serving less than ``GRACEFUL_SHARE`` of the peak actions/s
that any size served (``overload_failures``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

# Past saturation the room slows down instead of falling over: its largest size keeps at least
# this share of the best served throughput of the sweep.
GRACEFUL_SHARE = 0.9

COLUMNS = (
    ("tables", "tables"),
    ("asked/s", "asked_per_second"),
    ("served/s", "served_per_second"),
    ("served", "served_ratio"),
    ("p50 ms", "p50"),
    ("p99 ms", "p99"),
    ("SQL/action", "queries_per_action"),
    ("KB/change", "redis_kb_per_change"),
    ("server CPU-ms/action", "server_cpu_ms"),
    ("other load (cores)", "other_busy_cores"),
)


def run_sweep(args, *, env: dict[str, str], log_dir: Path, log) -> dict:
    from . import runs
    from .__main__ import fresh_stack
    from .bots import Profile

    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    rows, failures = [], []
    for tables in sizes:
        log(f"== sweep: {tables} tables ==")
        stack = fresh_stack(args, env=env, log_dir=log_dir / f"tables-{tables}")
        with stack:
            figures = runs.run_play(
                stack,
                tables=tables,
                seats=args.seats,
                profile=Profile(think_mean=args.pace, think_max=args.pace * 5),
                duration=args.duration,
                warmup=args.warmup,
                action_seconds=30,
                countdown_seconds=10,
                seed=args.seed,
                pace=args.pace,
                route=args.route,
                log=log,
                drain_timeout=args.drain_timeout,
            )
        row = summarize(figures, pace=args.pace)
        rows.append(row)
        log("   " + json.dumps(row))
        failures += [
            f"{tables} tables: {failure}"
            for failure in figures["failures"]
            if not failure.startswith(("served ", "p99 "))
        ]
        table = write_figures(
            rows, log_dir, args.figures_dir
        )  # after every size: a long sweep cut short keeps its rows
    failures += overload_failures(rows)
    log(table)
    return {"rows": rows, "failures": failures}


def overload_failures(rows: list[dict]) -> list[str]:
    """The sweep's largest size against its peak: served actions/s under ``GRACEFUL_SHARE`` of
    the best any size served means that past saturation the room fell over."""
    if len(rows) < 2:
        return []
    largest = max(rows, key=lambda row: row["tables"])
    peak = max(rows, key=lambda row: row["served_per_second"] or 0)
    served, best = largest["served_per_second"] or 0, peak["served_per_second"] or 0
    if best and served < GRACEFUL_SHARE * best:
        return [
            f"{largest['tables']} tables served {served} actions/s, under {GRACEFUL_SHARE:.0%} of the peak "
            f"{best} actions/s (at {peak['tables']} tables): past saturation the room fell over"
        ]
    return []


def write_figures(rows: list[dict], log_dir: Path, figures_dir: Path | None) -> str:
    table = markdown(rows)
    (log_dir / "sweep.md").write_text(table)
    plot(rows, log_dir / "sweep.png")
    if figures_dir:
        figures_dir.mkdir(parents=True, exist_ok=True)
        for name in ("sweep.md", "sweep.png"):
            shutil.copy(log_dir / name, figures_dir / name)
    return table


def summarize(figures: dict, *, pace: float) -> dict:
    latency = figures["latency_ms"]
    return {
        "tables": figures["tables"],
        "asked_per_second": round(figures["tables"] / pace, 1),
        "served_per_second": figures["served_per_second"],
        "served_ratio": figures["served_ratio"],
        "p50": latency["p50"],
        "p99": latency["p99"],
        "queries_per_action": figures["queries_per_action"],
        "redis_kb_per_change": figures["redis_kb_per_change"],
        "server_cpu_ms": figures["cpu_ms_per_action"].get("server"),
        "cpu_ms_per_action": figures["cpu_ms_per_action"],
        "other_busy_cores": figures["machine"].get("other_busy_cores"),
        "connect_failures": figures["connect_failures"],
    }


def markdown(rows: list[dict]) -> str:
    head = "| " + " | ".join(title for title, _ in COLUMNS) + " |\n"
    rule = "|" + "---|" * len(COLUMNS) + "\n"
    body = "".join("| " + " | ".join(_cell(key, row.get(key)) for _, key in COLUMNS) + " |\n" for row in rows)
    return head + rule + body


def _cell(key: str, value) -> str:
    if value is None:
        return "—"
    return f"{value:.0%}" if key == "served_ratio" else str(value)


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tables = [row["tables"] for row in rows]
    fig, throughput = plt.subplots(figsize=(8, 4.5), dpi=110)
    throughput.plot(tables, [row["asked_per_second"] for row in rows], "k:", label="asked actions/s")
    throughput.plot(
        tables, [row["served_per_second"] for row in rows], "o-", color="tab:blue", label="served actions/s"
    )
    throughput.set_xlabel("six-handed tables (one action per table every 2 s asked)")
    throughput.set_ylabel("actions/s")
    latency = throughput.twinx()
    latency.plot(tables, [row["p50"] or float("nan") for row in rows], "s--", color="tab:green", label="p50 ms")
    latency.plot(tables, [row["p99"] or float("nan") for row in rows], "^--", color="tab:red", label="p99 ms")
    latency.set_yscale("log")
    latency.set_ylabel("action → every screen, ms (log)")
    lines = throughput.get_legend_handles_labels()[0] + latency.get_legend_handles_labels()[0]
    labels = throughput.get_legend_handles_labels()[1] + latency.get_legend_handles_labels()[1]
    throughput.legend(lines, labels, loc="upper left", fontsize=8)
    throughput.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
