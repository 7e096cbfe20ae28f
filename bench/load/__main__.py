"""python -m bench.load {load,storm,neighbour,sweep,soak,faults,hostile,topology,tournament} [options]  (from the repository root, in .venv)

Each command recreates a dedicated database (default ``poker_bench``), migrates
it, flushes a dedicated Redis DB (default 12), starts the stack (daphne x
--web, celery worker, celery beat) on loopback, runs, audits the chips, stops
everything and writes the figures as JSON under --out. Exit status 1 if a
check failed: for ``load``, also when fewer than 90% of the actions asked were served
or the p99 is over ``--p99-ms``. ``storm`` and ``neighbour`` are ``load`` with a kill -9 of
``web0`` (restarted) or a CPU hog pinned to one core in the measured window. ``sweep`` runs
``load`` at several sizes and writes a table and a plot. ``topology`` plays through the
README's production topology (``bench.topology``, network namespaces as hosts: nginx, two
web hosts of two daphnes, PostgreSQL and Redis on a host of their own) and kills -9 every
process of one web host mid-play; it uses the topology's database and Redis, not ``--db``
and ``--redis``. ``tournament`` plays a scheduled
tournament of N bots to the end (bench/load/tournament.py).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path

from .stack import ROOT, Stack, bench_env, database_url, flush_redis_db, recreate_database


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--db", default="poker_bench", help="database name, dropped and recreated (default poker_bench)"
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12", help="dedicated Redis DB, flushed")
    parser.add_argument("--web", type=int, default=2, help="daphne processes (default 2)")
    parser.add_argument("--worker-concurrency", type=int, default=1)
    parser.add_argument("--hand-pause", default="0.5", help="HAND_PAUSE_SECONDS (default 0.5)")
    parser.add_argument("--no-probe", action="store_true", help="serve config.asgi directly (no SQL counter)")
    parser.add_argument(
        "--route",
        choices=("table", "user"),
        default="table",
        help="which daphne a bot's socket goes to: its table's (as a proxy hashing the path would) or by player",
    )
    parser.add_argument(
        "--channel-layer",
        choices=("pubsub", "lists"),
        default=None,
        help="CHANNEL_LAYER of the stack (default: the app's)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "var" / "bench")
    parser.add_argument("--seed", type=int, default=1)
    sub = parser.add_subparsers(dest="command", required=True)

    paced = argparse.ArgumentParser(add_help=False)  # the options of the runs at human pace
    paced.add_argument("--tables", type=int, default=20)
    paced.add_argument("--seats", type=int, default=6)
    paced.add_argument("--pace", type=float, default=2.0, help="seconds per action per table on average (default 2)")
    paced.add_argument("--duration", type=float, default=120, help="seconds of the measured window")
    paced.add_argument("--warmup", type=float, default=15)

    load = sub.add_parser("load", parents=[paced], help="T tables at a steady pace: hands/min, latency, SQL per action")
    load.add_argument("--p99-ms", type=float, default=None, help="fail when the p99 latency is above this")
    load.add_argument("--min-served", type=float, default=0.9, help="fail below this share of actions served")
    load.add_argument(
        "--own-postgres",
        action="store_true",
        help="run on a private PostgreSQL cluster (free port, /tmp): not short of connections on a shared server",
    )

    storm = sub.add_parser(
        "storm",
        parents=[paced],
        help="load, and kill -9 web0 with its sockets, restart it: reconnects, catch-up, p99 per window after",
    )
    storm.set_defaults(duration=60)
    storm.add_argument(
        "--kill-after", type=float, default=10, help="seconds of the measured window before the kill (default 10)"
    )
    storm.add_argument("--restart-after", type=float, default=1.0, help="seconds from the kill to the restart")
    storm.add_argument("--window", type=float, default=2.0, help="seconds per latency window (default 2)")
    storm.add_argument("--p99-ms", type=float, default=100.0, help="the p99 bound a window must be back under")
    storm.add_argument(
        "--recover-within", type=float, default=10.0, help="fail when no window is under it this long after the restart"
    )

    neighbour = sub.add_parser(
        "neighbour",
        parents=[paced],
        help="load, with a CPU hog pinned to one core for a while: served and latency before, during, after",
    )
    neighbour.set_defaults(duration=60)
    neighbour.add_argument("--hog-seconds", type=float, default=20)
    neighbour.add_argument("--hog-after", type=float, default=10, help="seconds of the measured window before it")
    neighbour.add_argument("--hog-core", type=int, default=0, help="the core it is pinned to (default 0)")
    neighbour.add_argument("--window", type=float, default=2.0, help="seconds per window in the figures")
    neighbour.add_argument(
        "--min-served-hog", type=float, default=0.5, help="fail below this share served while the hog runs"
    )
    neighbour.add_argument("--min-served", type=float, default=0.9, help="fail below this share served after it")

    sweep = sub.add_parser("sweep", help="load at several sizes: a table and a plot of throughput and latency")
    sweep.add_argument("--sizes", default="20,50,100,200,300,400", help="comma-separated table counts")
    sweep.add_argument("--seats", type=int, default=6)
    sweep.add_argument("--pace", type=float, default=2.0)
    sweep.add_argument("--duration", type=float, default=30)
    sweep.add_argument("--warmup", type=float, default=10)
    sweep.add_argument("--drain-timeout", type=float, default=120)
    sweep.add_argument(
        "--figures-dir", type=Path, default=ROOT / "bench" / "load" / "results", help="where sweep.md/png go too"
    )

    soak = sub.add_parser("soak", help="N hands with timeouts, disconnects, double submits; audit; nothing stuck")
    soak.add_argument("--tables", type=int, default=20)
    soak.add_argument("--seats", type=int, default=6)
    soak.add_argument("--hands", type=int, default=10_000)
    soak.add_argument("--max-minutes", type=float, default=120)

    faults = sub.add_parser(
        "faults", help="kill -9 web processes and the worker, restart Redis and PostgreSQL during play; audit"
    )
    faults.add_argument("--tables", type=int, default=10)
    faults.add_argument("--seats", type=int, default=6)
    faults.add_argument("--kills", type=int, default=20)
    faults.add_argument("--every", type=float, nargs=2, default=(4.0, 10.0), metavar=("MIN", "MAX"))
    faults.add_argument("--max-minutes", type=float, default=20)
    faults.add_argument(
        "--redis-restarts", type=int, default=0, help="kill -9 a private Redis N times and restart it empty"
    )
    faults.add_argument(
        "--postgres-restarts",
        type=int,
        default=0,
        help="restart a private PostgreSQL N times (pg_ctl -m fast and kill -9 of the postmaster, in turn)",
    )

    topology = sub.add_parser(
        "topology",
        parents=[paced],
        help="load through the production topology's proxy (bench.topology), kill -9 one web host mid-play",
    )
    topology.set_defaults(duration=60)
    topology.add_argument("--kill-host", choices=("omaha-web1", "omaha-web2"), default="omaha-web2",
                          help="the web host killed (default omaha-web2: beat and the worker run on omaha-web1)")  # fmt: skip
    topology.add_argument("--kill-after", type=float, default=10, help="seconds of the measured window before it")
    topology.add_argument("--window", type=float, default=2.0, help="seconds per latency window (default 2)")
    topology.add_argument("--p99-ms", type=float, default=100.0, help="the p99 bound a window must be back under")
    topology.add_argument(
        "--recover-within", type=float, default=10.0, help="seconds after every socket is back to be under it"
    )
    topology.add_argument(
        "--existing", action="store_true", help="play against a topology already up (bench.topology up --load)"
    )

    tourney = sub.add_parser(
        "tournament", help="N bots in a scheduled tournament played to the end: moves, breaks, hand-for-hand, checks"
    )
    tourney.add_argument("--players", type=int, default=60)
    tourney.add_argument("--seats", type=int, default=6, help="seats per table (default 6)")
    tourney.add_argument("--level-minutes", type=int, default=1, help="minutes per blind level (default 1)")
    tourney.add_argument("--starting-chips", type=int, default=1500)
    tourney.add_argument("--variant", choices=("pot_limit", "limit"), default="pot_limit")
    tourney.add_argument("--pace", type=float, default=1.0, help="a bot's mean think time in seconds (default 1)")
    tourney.add_argument("--action-seconds", type=int, default=10, help="the tables' time to act (default 10)")
    tourney.add_argument("--lead", type=float, default=5.0, help="seconds from the field being in to the start")
    tourney.add_argument("--start-window", type=float, default=10.0, help="seconds of the start's latency window")
    tourney.add_argument("--max-minutes", type=float, default=60.0, help="fail when it has not finished by then")
    tourney.add_argument("--p99-ms", type=float, default=None, help="fail when a p99 (start, whole run) is above it")
    tourney.add_argument(
        "--own-postgres",
        action="store_true",
        help="run on a private PostgreSQL cluster (free port, /tmp): not short of connections on a shared server",
    )

    hostile = sub.add_parser("hostile", help="N malformed or hostile frames: no error, no state change")
    hostile.add_argument("--frames", type=int, default=10_000)
    args = parser.parse_args(argv)
    if args.command == "storm" and args.duration < args.kill_after + args.restart_after + args.recover_within:
        parser.error("storm: --duration must leave --recover-within seconds after the restart")
    if args.command == "topology" and args.duration < args.kill_after + args.recover_within + 5:
        parser.error("topology: --duration must leave --recover-within seconds (and 5) after the kill")
    if args.command == "neighbour" and args.duration < args.hog_after + args.hog_seconds + 5:
        parser.error("neighbour: --duration must leave at least 5 s after the hog")
    if args.command == "neighbour" and args.hog_core not in os.sched_getaffinity(0):
        parser.error(f"neighbour: core {args.hog_core} is not one of this machine's {sorted(os.sched_getaffinity(0))}")

    def terminate(signum, frame):  # SIGTERM/SIGHUP: unwind so the stack's processes are stopped too
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGHUP, terminate)

    # Services the run restarts are private: on their own ports, started and stopped here.
    from .services import PrivatePostgres, PrivateRedis

    stamp = time.strftime("%Y%m%d-%H%M%S")
    log_dir = args.out / f"{args.command}-{stamp}"
    log_dir.mkdir(parents=True, exist_ok=True)
    if args.command == "topology":
        from . import topology_run

        log = lambda message: print(message, flush=True)  # noqa: E731
        play = {k: v for k, v in _paced(args, log).items() if k not in ("tables", "pace", "log", "route")}
        return _finish(topology_run.main(args, log_dir, play, log=log), log_dir)
    private_redis = private_postgres = None
    if args.command == "faults" and args.redis_restarts:
        private_redis = PrivateRedis(log_dir)
        private_redis.start()
        args.redis = private_redis.url
    if (args.command == "faults" and args.postgres_restarts) or (
        args.command in ("tournament", "load") and args.own_postgres
    ):
        private_postgres = PrivatePostgres(log_dir)
        private_postgres.start()
    try:
        return _run(args, log_dir, private_redis, private_postgres)
    finally:
        for server in (private_redis, private_postgres):
            if server is not None:
                server.stop()


def _run(args, log_dir: Path, private_redis, private_postgres) -> int:
    db_url = private_postgres.url(args.db) if private_postgres else database_url(args.db)
    env = bench_env(
        database_url=db_url,
        redis_url=args.redis,
        extra={
            "HAND_PAUSE_SECONDS": str(args.hand_pause),
            "CHIPS_SIGNUP_GRANT": "1000000",
            **({"CHANNEL_LAYER": args.channel_layer} if args.channel_layer else {}),
            **({"STATIC_ROOT": str(ROOT / "var" / "bench" / "static")} if args.command == "tournament" else {}),
        },
    )
    os.environ.update(env)
    args.private_redis, args.private_postgres = private_redis, private_postgres
    import django

    django.setup()
    log = lambda message: print(message, flush=True)  # noqa: E731
    if args.command == "sweep":
        from .sweep import run_sweep

        figures = run_sweep(args, env=env, log_dir=log_dir, log=log)
    else:
        figures = _run_once(args, env=env, log_dir=log_dir, log=log)
    return _finish(figures, log_dir)


def _finish(figures: dict, log_dir: Path) -> int:
    """Write and print the figures; 1 when a check failed."""
    figures["command"] = " ".join(sys.argv)
    figures["load_average"] = os.getloadavg()
    (log_dir / "figures.json").write_text(json.dumps(figures, indent=2, default=str))
    print(json.dumps(figures, indent=2, default=str))
    print(f"figures: {log_dir / 'figures.json'}")
    if figures["failures"]:
        print("FAILED:\n  " + "\n  ".join(figures["failures"]), file=sys.stderr)
        return 1
    print("PASSED")
    return 0


def fresh_stack(args, *, env: dict[str, str], log_dir: Path) -> Stack:
    """Recreate the bench database and flush the bench Redis DB, migrate, and return the stack to start."""
    from django.core.management import call_command
    from django.db import connections

    connections.close_all()
    print(f"database {args.db} (recreated), redis {args.redis} (flushed)", flush=True)
    recreate_database(args.db, port=args.private_postgres.port if args.private_postgres else 5432)
    if args.private_redis is None:  # a private Redis starts empty
        flush_redis_db(args.redis)
    call_command("migrate", verbosity=0)
    return Stack(
        env=env, log_dir=log_dir, web=args.web, worker_concurrency=args.worker_concurrency, probe=not args.no_probe
    )


def _paced(args, log) -> dict:
    """``run_play``'s arguments for ``load``, ``storm`` and ``neighbour``: clean bots, one action
    per table every ``--pace`` seconds (each of the table's turns waits ~pace), 30 s to act."""
    from .bots import Profile

    return {
        "tables": args.tables,
        "seats": args.seats,
        "profile": Profile(think_mean=args.pace, think_max=args.pace * 5),
        "duration": args.duration,
        "warmup": args.warmup,
        "action_seconds": 30,
        "countdown_seconds": 10,
        "seed": args.seed,
        "pace": args.pace,
        "route": args.route,
        "log": log,
        "drain_timeout": 240,  # hands at human pace take a minute or two
    }


def _run_once(args, *, env: dict[str, str], log_dir: Path, log) -> dict:
    from . import runs

    if args.command == "tournament":
        from .tournament import collect_static

        collect_static(env)  # its pages are rendered with DEBUG=0
    stack = fresh_stack(args, env=env, log_dir=log_dir)
    with stack:
        log(f"stack up: daphne on {stack.ports}, worker, beat; logs in {log_dir}")
        if args.command == "load":
            figures = runs.run_play(
                stack, measure_queries=True, p99_ms=args.p99_ms, min_served=args.min_served, **_paced(args, log)
            )
        elif args.command == "storm":
            figures = runs.run_storm(
                stack,
                kill_after=args.kill_after,
                restart_after=args.restart_after,
                window=args.window,
                p99_ms=args.p99_ms,
                recover_within=args.recover_within,
                **_paced(args, log),
            )
        elif args.command == "neighbour":
            figures = runs.run_neighbour(
                stack,
                hog_after=args.hog_after,
                hog_seconds=args.hog_seconds,
                core=args.hog_core,
                window=args.window,
                min_served_hog=args.min_served_hog,
                min_served=args.min_served,
                **_paced(args, log),
            )
        elif args.command == "soak":
            figures = runs.run_play(
                stack,
                tables=args.tables,
                seats=args.seats,
                profile=runs.CHAOS,
                duration=args.max_minutes * 60,
                hands=args.hands,
                seed=args.seed,
                log=log,
            )
        elif args.command == "faults":
            figures = runs.run_play(
                stack,
                tables=args.tables,
                seats=args.seats,
                profile=runs.CHAOS,
                duration=args.max_minutes * 60,
                hands=1,
                kills=args.kills,
                kill_every=tuple(args.every),
                redis=args.private_redis,
                postgres=args.private_postgres,
                redis_restarts=args.redis_restarts,
                postgres_restarts=args.postgres_restarts,
                seed=args.seed,
                log=log,
            )
        elif args.command == "tournament":
            from .tournament import run_tournament

            figures = run_tournament(
                stack,
                players=args.players,
                seats=args.seats,
                level_minutes=args.level_minutes,
                starting_chips=args.starting_chips,
                variant=args.variant,
                pace=args.pace,
                action_seconds=args.action_seconds,
                lead=args.lead,
                start_window=args.start_window,
                max_minutes=args.max_minutes,
                p99_ms=args.p99_ms,
                seed=args.seed,
                route=args.route,
                log=log,
            )
        else:
            figures = runs.run_hostile_frames(stack, frames=args.frames, seed=args.seed, log=log)
    return figures


if __name__ == "__main__":
    sys.exit(main())
