"""The tournament run (``python -m bench.load tournament --players N``): N bots in a scheduled
tournament played to the end on the running stack.

Staff's part is done on the harness's database as the admin would (the tournament and its
levels saved, its start set a few seconds ahead once the field is in); each bot registers
through ``tournaments.services.registration``. The beat clock starts it: the tables are made,
the players seated and every table's first hand dealt in one tick. Meanwhile the harness reads
the tournament's state every 0.1 s; once it runs, every bot reads its table on the tournament's
page and opens its socket there (``tournament_bots``), and plays the cash bots' random legal
actions at ``--pace``, following its seat when balancing or a table breaking moves it, until
it is out. The run then checks the finish (one winner, one place per entrant, prizes = pool),
the chips (``cashier.audit``, with the tournaments' part), that no table dealt while it owed a
player to another table or had to break (``tournament_checks.deal_problems``) or stayed
unbalanced while idle, that no hand was stuck (a turn deadline 15 s past) and that no process
logged a traceback.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta

from django.db import connection

from . import tournament_checks as checks
from .bots import Harness, Profile
from .cpu import CpuMeter, per_action
from .report import audit, percentiles, span
from .session import Db, stop_bots
from .stack import ROOT
from .tournament_bots import TournamentBot
from .world import BotAccount, make_session, make_user

# The tournament page is rendered with DEBUG=0: its static files' manifest must exist.
STATIC_ROOT = ROOT / "var" / "bench" / "static"
IDLE_UNBALANCED_LIMIT = 10.0
STILL_LIMIT = 60.0  # seconds a running tournament may go without a hand dealt or an action taken  # seconds a table may stay owed a move (or due to break) with no hand running


def collect_static(env: dict[str, str]) -> None:
    """``collectstatic`` into the stack's ``STATIC_ROOT`` (the release step), before the stack starts."""
    done = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"collectstatic failed: {done.stderr[-2000:]}")


def create_tournament(
    *, players: int, seats: int, level_minutes: int, starting_chips: int, variant: str, action_seconds: int
):
    """A scheduled tournament with the variant's default levels of ``level_minutes`` each, and
    ``players`` bots registered through the service; it starts when ``schedule`` sets its time."""
    from django.utils import timezone

    from tournaments import rules
    from tournaments.models import BlindLevel, Tournament
    from tournaments.services import registration

    tag = uuid.uuid4().hex[:6]
    tournament = Tournament(
        name=f"Bench {players} {tag}",
        kind=Tournament.Kind.SCHEDULED,
        variant=variant,
        seats_per_table=seats,
        buy_in=100,
        fee=10,
        starting_chips=starting_chips,
        starts_at=timezone.now() + timedelta(hours=1),
        min_entrants=2,
        max_entrants=players,
        action_seconds=action_seconds,
        countdown_seconds=1,
    )
    tournament.full_clean()
    tournament.save()
    BlindLevel.objects.bulk_create(
        BlindLevel(tournament=tournament, number=n, small=lv.small, big=lv.big, ante=lv.ante, minutes=level_minutes)
        for n, lv in enumerate(rules.default_schedule(variant), start=1)
    )
    accounts = []
    for k in range(players):
        user = make_user(f"tb{tag}p{k}")
        registration.register(user=user, tournament_id=tournament.pk, request_id=uuid.uuid4().hex)
        accounts.append(BotAccount(user.pk, user.username, make_session(user), 0, 0))
    return tournament, accounts


def schedule(tournament_id: int, seconds: float) -> None:
    from django.utils import timezone

    from tournaments.models import Tournament

    Tournament.objects.filter(pk=tournament_id).update(starts_at=timezone.now() + timedelta(seconds=seconds))


def _started_at(tournament_id: int) -> tuple[str, datetime | None]:
    from tournaments.models import Tournament

    t = Tournament.objects.get(pk=tournament_id)
    return t.state, t.started_at


async def _play(tournament_id, accounts, ports, profile, seed, route, lead, max_seconds, cpu_meter, log) -> dict:
    harness, db = Harness(), Db()
    harness.db = db
    rng = random.Random(seed)
    bots = [
        TournamentBot(a, ports, harness, profile, random.Random(rng.random()), tournament_id, route) for a in accounts
    ]
    out: dict = {"overdue": [], "idle_unbalanced": [], "h4h_spans": [], "max_idle_unbalanced_s": 0.0}
    tasks = [asyncio.ensure_future(harness.expire_loop())]
    try:
        await db.run(schedule, tournament_id, lead)
        deadline = time.monotonic() + lead + 60
        while True:
            state, started_at = await harness.db_retrying(_started_at, tournament_id)
            if state != "registering" or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        if state != "running":
            out["start_problem"] = f"the tournament did not start: {state}"
            return out
        t0 = out["t0"] = time.monotonic()
        out["seen_running_after_s"] = round(time.time() - started_at.timestamp(), 3)
        await asyncio.get_running_loop().run_in_executor(None, cpu_meter.start)
        tasks += [asyncio.ensure_future(b.run()) for b in bots]
        owed_since: dict[tuple[str, int], float] = {}
        h4h_from = None
        last_log = t0
        progress, moved_at = -1, t0
        while time.monotonic() - t0 < max_seconds:
            await harness.sleep(0.5)
            now, wall = time.monotonic(), datetime.now(UTC)
            live = await harness.db_retrying(checks.sample, tournament_id)
            if live["progress"] != progress:
                progress, moved_at = live["progress"], now
            elif now - moved_at > STILL_LIMIT:
                out["still"] = f"no hand dealt and no action for {STILL_LIMIT}s: {live['counts']}, {live}"
                break
            out["overdue"] += [o for o in live["overdue"] if o not in out["overdue"]]
            if live["hand_for_hand"] and h4h_from is None:
                h4h_from = wall
            elif not live["hand_for_hand"] and h4h_from is not None:
                out["h4h_spans"].append((h4h_from, wall))
                h4h_from = None
            due = checks.unbalanced_source(live["counts"], live["break_order"], live["seats_per_table"])
            if due is not None and due[1] not in live["running"]:
                since = owed_since.setdefault(due, now)
                out["max_idle_unbalanced_s"] = max(out["max_idle_unbalanced_s"], round(now - since, 1))
                if now - since > IDLE_UNBALANCED_LIMIT and due not in out["idle_unbalanced"]:
                    out["idle_unbalanced"].append((*due, dict(live["counts"])))
            owed_since = {key: at for key, at in owed_since.items() if key == due and due[1] not in live["running"]}
            if now - last_log > 15:
                last_log = now
                playing = sum(1 for b in bots if not b.out)
                log(f"  {now - t0:5.0f}s level {live['level']} players {sum(live['counts'].values())} tables "
                    f"{len(live['counts'])} bots in {playing} actions {harness.stats.actions}"
                    f"{' hand-for-hand' if live['hand_for_hand'] else ''}")  # fmt: skip
            if live["state"] != "running":
                break
        if h4h_from is not None:
            out["h4h_spans"].append((h4h_from, datetime.now(UTC)))
        out["seconds"] = time.monotonic() - t0
        await asyncio.get_running_loop().run_in_executor(None, cpu_meter.stop)
        await harness.sleep(2.0)  # the last screens (the finish) reach the sockets still open
        for monitor in harness.monitors.values():
            monitor.expire(older_than=0)  # what is still pending now never reached every screen
    finally:
        await stop_bots(harness, bots, tasks, db)
    out["bots"], out["stats"] = bots, harness.stats
    return out


def run_tournament(
    stack,
    *,
    players: int = 60,
    seats: int = 6,
    level_minutes: int = 1,
    starting_chips: int = 1500,
    variant: str = "pot_limit",
    pace: float = 1.0,
    action_seconds: int = 10,
    lead: float = 5.0,
    start_window: float = 10.0,
    max_minutes: float = 60.0,
    p99_ms: float | None = None,
    seed: int = 1,
    route: str = "table",
    log=print,
) -> dict:
    tournament, accounts = create_tournament(
        players=players,
        seats=seats,
        level_minutes=level_minutes,
        starting_chips=starting_chips,
        variant=variant,
        action_seconds=action_seconds,
    )
    log(f"tournament {tournament.pk}: {players} registered, starting in {lead}s; daphne on {stack.ports}")
    offsets = stack.log_offsets()
    cpu_meter = CpuMeter(
        groups=stack.process_groups,
        database=connection.settings_dict["NAME"],
        redis_url=stack.env.get("REDIS_URL"),
        database_address=("127.0.0.1", int(connection.settings_dict["PORT"] or 5432)),  # --own-postgres: its cluster
    )
    profile = Profile(think_mean=pace, think_max=pace * 5)
    played = asyncio.run(
        _play(tournament.pk, accounts, stack.ports, profile, seed, route, lead, max_minutes * 60, cpu_meter, log)
    )
    failures = [played["start_problem"]] if "start_problem" in played else []
    figures: dict = {"tournament_id": tournament.pk, "players": players, "seats_per_table": seats}
    if not failures:
        figures.update(_figures(tournament.pk, played, start_window, cpu_meter, failures))
    figures["server_errors"] = stack.errors_since(offsets)
    figures["tracebacks"] = sum("Traceback" in error for error in figures["server_errors"])
    figures["audit"] = audit()
    if not figures["audit"]["ok"]:
        failures.append(f"chip audit: {figures['audit']['problems']}")
    if figures["server_errors"]:
        failures.append(f"server errors: {figures['server_errors'][:5]}")
    if p99_ms is not None and not failures:
        for name in ("start_window", "whole_run"):
            p99 = figures["latency_ms"][name]["p99"]
            if p99 is None or p99 > p99_ms:
                failures.append(f"{name} p99 {p99} ms is over the {p99_ms} ms bound")
    figures["failures"] = failures
    return figures


def _figures(tournament_id: int, played: dict, start_window: float, cpu_meter, failures: list[str]) -> dict:
    from tables.models import Hand
    from tournaments.models import TournamentTable

    bots, stats, t0 = played["bots"], played["stats"], played["t0"]
    samples = list(zip(stats.sent, stats.latencies, strict=True))
    end = t0 + played["seconds"] + 60
    finish, problems = checks.result_problems(tournament_id)
    failures += problems
    if "still" in played:
        failures.append(f"the tournament stood still: {played['still']}")
    checked, deal_problems = checks.deal_problems(tournament_id)
    failures += [f"unbalanced deal: {p}" for p in deal_problems[:5]]
    failures += [f"unbalanced while idle over {IDLE_UNBALANCED_LIMIT}s: {u}" for u in played["idle_unbalanced"][:5]]
    if played["overdue"]:
        failures.append(f"stuck hands (turn deadline 15 s past): {played['overdue'][:5]}")
    table_ids = TournamentTable.objects.filter(tournament_id=tournament_id).values_list("table_id", flat=True)
    running = list(
        Hand.objects.filter(table_id__in=table_ids, state=Hand.State.RUNNING).values_list("table_id", "number")
    )
    if running:
        failures.append(f"hands still running after the finish: {running}")
    moved = checks.moves(tournament_id)
    followed = sum(len([t for t in b.tables if t]) - 1 for b in bots if b.tables)
    firsts = list(Hand.objects.filter(table_id__in=table_ids, number=1).values_list("started_at", flat=True))
    opened = [b.opened_at - t0 for b in bots if b.opened_at is not None]
    shown = [b.first_shown_at - t0 for b in bots if b.first_shown_at is not None]
    final = moved["final_table"]
    served = len(stats.latencies)
    cpu_ms = cpu_meter.milliseconds()
    return {
        "tables": len(table_ids),
        "seconds": round(played["seconds"], 1),
        "hands": Hand.objects.filter(table_id__in=table_ids).count(),
        "hands_checked_for_balance": checked,
        "actions": stats.actions,
        "actions_served": served,
        "latency_unresolved": stats.unresolved,
        "balancing_moves": moved["balancing_moves"],
        "table_breaks": moved["table_breaks"],
        "players_moved_by_breaks": moved["players_moved_by_breaks"],
        "moves_followed_by_bots": followed,
        "hand_for_hand_hands": checks.hands_between(tournament_id, played["h4h_spans"]),
        "max_idle_unbalanced_s": played["max_idle_unbalanced_s"],
        "final_table": {
            "table_id": final,
            "bots_that_played_it": sum(1 for b in bots if final in b.tables),
            "hands": Hand.objects.filter(table_id=final).count() if final else 0,
        },
        "start": {
            "seen_running_after_s": played["seen_running_after_s"],
            "first_hands": len(firsts),
            "first_hands_dealt_within_s": round((max(firsts) - min(firsts)).total_seconds(), 3) if firsts else None,
            "sockets_opened": len(opened),
            "last_socket_open_s": round(max(opened), 3) if opened else None,
            "last_snapshot_shown_s": round(max(shown), 3) if shown else None,
            "window_s": start_window,
        },
        "latency_ms": {
            "start_window": span(samples, start=t0, end=t0 + start_window, unresolved_sent=stats.unresolved_sent),
            "whole_run": {
                **span(samples, start=t0, end=end, unresolved_sent=stats.unresolved_sent),
                **{k: v for k, v in percentiles([s * 1000 for s in stats.latencies]).items() if k in ("p95", "max")},
            },
        },
        "cpu_ms": cpu_ms,
        "cpu_ms_per_action": per_action(cpu_ms, served),
        "machine": cpu_meter.machine(),
        "connects": stats.connects,
        "connect_failures": stats.connect_failures,
        "unexpected_closes": stats.unexpected_closes,
        **stats.backoffs.figures(),
        "page_reads": sum(b.page_reads for b in bots),
        "page_failures": sum(b.page_failures for b in bots),
        "refusals": dict(stats.refusals.most_common()),
        "finish": finish,
    }
