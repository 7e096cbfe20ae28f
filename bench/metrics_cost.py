"""CPU the metrics add to one action on the write path: what ``operations.metrics`` records
for an applied action (the consumer's counter and latency histogram, the screens' publish
histogram, and their three ``perf_counter`` reads), timed with ``time.process_time`` over many
repetitions, in this process's registry and in Prometheus' multiprocess mode (values in
memory-mapped files, as a prefork Celery worker keeps them).

``python -m bench.metrics_cost [--repeat N]`` prints microseconds per action for both. Set it
beside ``python -m bench.write_path``'s CPU milliseconds per action for the share.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def per_action_us(repeat: int) -> float:
    from operations import metrics

    applied, action_seconds, publish_seconds = metrics.ACTIONS_APPLIED, metrics.ACTION_SECONDS, metrics.PUBLISH_SECONDS
    clock = time.perf_counter
    started = time.process_time()
    for _ in range(repeat):
        received = clock()
        committed = clock()
        publish_seconds.observe(clock() - committed)
        applied.inc()
        action_seconds.observe(clock() - received)
    return (time.process_time() - started) / repeat * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.metrics_cost", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--repeat", type=int, default=200_000)
    parser.add_argument("--one", choices=["memory", "multiprocess"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(per_action_us(args.repeat))
        return 0
    figures = {}
    with tempfile.TemporaryDirectory(prefix="bench-metrics-") as directory:
        for mode, extra in [("memory", {}), ("multiprocess", {"PROMETHEUS_MULTIPROC_DIR": directory})]:
            env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"} | extra
            runs = [
                float(
                    subprocess.run(
                        [sys.executable, "-m", "bench.metrics_cost", "--one", mode, "--repeat", str(args.repeat)],
                        env=env,
                        capture_output=True,
                        text=True,
                        check=True,
                    ).stdout
                )
                for _ in range(3)
            ]
            figures[f"{mode}_us_per_action"] = round(min(runs), 3)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
