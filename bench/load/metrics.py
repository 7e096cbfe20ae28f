"""The operator's view of a run: every daphne's ``/metrics`` (operations.metrics) read at its
end and added up, so the harness's figures and Prometheus' can be set side by side. They
cover the whole life of the processes (the warm-up too, not only the measured window), and
only the web processes: the hands the clock deals are counted in the worker, whose metrics
port the stack does not open."""

from __future__ import annotations

import urllib.request
from collections import defaultdict


def scrape(addresses: list[tuple[str, int]]) -> dict:
    """Counters summed over the web processes (``(host, port)`` each) that answered, and the action and publish
    latencies' quantiles from their merged histograms (bucket bounds in seconds)."""
    from prometheus_client.parser import text_string_to_metric_families

    sums: dict[tuple, float] = defaultdict(float)
    answered = 0
    for host, port in addresses:
        try:
            with urllib.request.urlopen(f"http://{host}:{port}/metrics", timeout=5) as response:
                text = response.read().decode()
        except OSError:
            continue  # killed on purpose, or restarting: its counts went with it
        answered += 1
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                sums[(sample.name, tuple(sorted(sample.labels.items())))] += sample.value

    def total(name: str, **labels) -> int:
        return int(sum(v for (n, ls), v in sums.items() if n == name and labels.items() <= dict(ls).items()))

    return {
        "web_processes_read": answered,
        "actions_applied": total("omaha_actions_total", result="applied"),
        "actions_refused": total("omaha_actions_total", result="refused"),
        "hands_started": total("omaha_hands_total", event="started"),
        "hands_completed": total("omaha_hands_total", event="completed"),
        "connects_refused": total("omaha_connects_refused_total"),
        # Whole screens sent again to sockets already open, by why (``send_snapshot``).
        "snapshots_resent": {
            dict(labels)["reason"]: int(value)
            for (name, labels), value in sorted(sums.items())
            if name == "omaha_snapshots_total" and value
        },
        "publish_failures": total("omaha_channel_layer_publish_failures_total"),
        "action_ms": _quantiles(sums, "omaha_action_seconds_bucket"),
        "publish_ms": _quantiles(sums, "omaha_screens_publish_seconds_bucket"),
        # How late the web processes' event loops ran (``tables/realtime/loop_lag.py``).
        "loop_lag_ms": _quantiles(sums, "omaha_loop_lag_seconds_bucket"),
        # The garbage collector's full collections, each a pause of its whole process.
        "gc_full_collections": total("omaha_gc_pause_seconds_count", generation="2"),
        "gc_full_pause_ms": _quantiles(sums, "omaha_gc_pause_seconds_bucket", generation="2"),
        "gc_full_pause_ms_total": round(
            1000
            * sum(v for (n, ls), v in sums.items() if n == "omaha_gc_pause_seconds_sum" and ("generation", "2") in ls)
        ),
    }


def _quantiles(sums: dict[tuple, float], bucket: str, **only: str) -> dict[str, float | None]:
    """p50 and p99 as Prometheus' histogram_quantile estimates them (linear within a bucket);
    ``only``: the labels of the series to read (else every series of the histogram, added up)."""
    by_bound: dict[float, float] = defaultdict(float)
    for (name, labels), count in sums.items():
        if name == bucket and only.items() <= dict(labels).items():
            by_bound[float(dict(labels)["le"])] += count
    cumulative = sorted(by_bound.items())
    if not cumulative or cumulative[-1][1] == 0:
        return {"p50": None, "p99": None}
    count = cumulative[-1][1]
    found = {}
    for q in (0.5, 0.99):
        rank, lower, below = q * count, 0.0, 0.0
        for bound, upto in cumulative:
            if upto >= rank:
                if bound == float("inf"):
                    found[f"p{int(q * 100)}"] = round(lower * 1000, 2)
                else:
                    share = (rank - below) / (upto - below) if upto > below else 1.0
                    found[f"p{int(q * 100)}"] = round((lower + (bound - lower) * share) * 1000, 2)
                break
            lower, below = bound, upto
    return found
