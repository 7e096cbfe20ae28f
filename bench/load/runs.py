"""The runs, shared by the command line (``python -m bench.load``) and the CI test.

Each takes a started ``Stack`` whose processes use the database this process
is connected to, and returns a dict of figures plus ``failures`` (empty = pass).
"""

from __future__ import annotations

import asyncio

from django.db import connection

from .bots import Profile
from .cpu import CpuMeter
from .faults import fault_task, storm_task
from .hog import hog_task
from .hostile import run_hostile, setup_table, snapshot
from .metrics import scrape as scrape_metrics
from .report import audit, back_under, measure_queries_in_process, span, stays_under, windows
from .session import play
from .world import build_world

CHAOS = Profile(think_mean=0.05, p_silent=0.03, p_double=0.05, p_disconnect=0.02, p_drop_on_turn=0.02, p_chat=0.03)


def run_play(
    stack,
    *,
    tables: int,
    seats: int = 6,
    players: int | None = None,
    profile: Profile,
    duration: float,
    hands: int | None = None,
    kills: int = 0,
    kill_every: tuple[float, float] = (3.0, 8.0),
    kill_targets: list[str] | None = None,
    drain_timeout: float = 60.0,
    warmup: float = 0.0,
    action_seconds: int = 2,
    countdown_seconds: int = 1,
    seed: int = 1,
    measure_queries: bool = False,
    pace: float | None = None,
    p99_ms: float | None = None,
    min_served: float = 0.9,
    route: str = "table",
    redis=None,
    postgres=None,
    redis_restarts: int = 0,
    postgres_restarts: int = 0,
    catch_up_limit: float = 5.0,
    fault=None,
    analyse=None,
    log=print,
) -> dict:
    """``pace``: the seconds per action per table the bots were asked for; the run then fails
    when fewer than ``min_served`` of the actions asked were served. ``p99_ms``: fail when the
    action-to-every-screen p99 is above it (or when nothing was measured).

    ``fault``: a fault task of the run's own (``faults.storm_task``, ``hog.hog_task``) for the
    measured window instead of the planned kills and restarts; its events are
    ``figures["faults"]``. ``analyse(result, figures)``: adds the run's own figures from the
    ``PlayResult`` (latencies with their send times) and returns its failures."""
    made, accounts = build_world(
        tables=tables,
        seats_per_table=seats,
        players_per_table=players,
        action_seconds=action_seconds,
        countdown_seconds=countdown_seconds,
    )
    table_ids = [t.pk for t in made]
    log(f"world: {len(made)} tables, {len(accounts)} bots; ports {stack.ports}")
    offsets = stack.log_offsets()
    cpu_meter = CpuMeter(
        groups=stack.process_groups,
        database=connection.settings_dict["NAME"],
        database_address=(connection.settings_dict["HOST"], connection.settings_dict["PORT"]),
        redis_url=stack.env.get("REDIS_URL"),
    )
    faults = fault or (
        fault_task(
            stack,
            count=kills,
            every=kill_every,
            seed=seed,
            targets=kill_targets,
            redis=redis,
            postgres=postgres,
            redis_restarts=redis_restarts,
            postgres_restarts=postgres_restarts,
            table_ids=table_ids,
            log=log,
        )
        if kills or redis_restarts or postgres_restarts
        else None
    )
    result = asyncio.run(
        play(
            accounts=accounts,
            ports=stack.ports,
            host=stack.host,
            table_ids=table_ids,
            profile=profile,
            duration=duration,
            hands=hands,
            drain_timeout=drain_timeout,
            seed=seed,
            probe_dir=stack.log_dir if stack.probe else None,
            fault_task=faults,
            warmup=warmup,
            pace=pace,
            cpu_meter=cpu_meter,
            route=route,
            log=log,
        )
    )
    figures = result.summary()
    figures["tables"], figures["bots"], figures["web_processes"] = tables, len(accounts), len(stack.ports)
    figures["metrics"] = scrape_metrics(stack.metrics_addresses)  # the operator's view of the same run
    # Tracebacks from a process we kill -9 on purpose are not server errors; any other is.
    figures["server_errors"] = stack.errors_since(offsets)
    figures["tracebacks"] = sum("Traceback" in error for error in figures["server_errors"])
    from django.db import close_old_connections

    close_old_connections()  # the database may have restarted under this thread's connection
    figures["audit"] = audit()
    if measure_queries:
        figures["queries_in_process"] = measure_queries_in_process()
    failures = []
    if not figures["audit"]["ok"]:
        failures.append(f"chip audit: {figures['audit']['problems']}")
    if figures["stuck_after_drain"]:
        failures.append(f"stuck hands after drain: {figures['stuck_after_drain']}")
    if figures["server_errors"]:
        failures.append(f"server errors: {figures['server_errors'][:5]}")
    if hands is not None and figures["hands"] < hands:
        failures.append(f"only {figures['hands']} of {hands} hands in {duration}s")
    if pace is not None and (figures["served_ratio"] or 0) < min_served:
        failures.append(
            f"served {figures['actions_served']} of {figures['actions_asked']} actions asked "
            f"({(figures['served_ratio'] or 0):.0%} < {min_served:.0%})"
        )
    if p99_ms is not None:
        p99 = figures["latency_ms"]["p99"]
        if p99 is None or p99 > p99_ms:
            failures.append(f"p99 {p99} ms is over the {p99_ms} ms bound")
    if faults is not None and fault is None:
        if len(figures["faults"]) < faults.planned:
            failures.append(f"only {len(figures['faults'])} of {faults.planned} faults injected")
        catch_ups = [f["caught_up_s"] for f in figures["faults"]]
        figures["caught_up_s"] = {
            "max": max((c for c in catch_ups if c is not None), default=None),
            "mean": round(sum(c for c in catch_ups if c is not None) / len(catch_ups), 2) if catch_ups else None,
            "never": catch_ups.count(None),
        }
        slow = [f for f in figures["faults"] if f["caught_up_s"] is None or f["caught_up_s"] > catch_up_limit]
        if slow:
            failures.append(f"screens not right within {catch_up_limit}s of the service's return: {slow}")
    if analyse is not None:
        failures += analyse(result, figures)
    figures["failures"] = failures
    return figures


def _span(result, start: float, end: float, asked_per_second: float) -> dict:
    """``report.span`` of the actions the run's bots sent in ``[start, end)``."""
    return span(
        result.samples,
        start=start,
        end=end,
        unresolved_sent=result.unresolved_sent,
        asked=asked_per_second * (end - start),
    )


def run_storm(
    stack,
    *,
    tables: int,
    pace: float,
    target: str = "web0",
    kill_after: float = 10.0,
    restart_after: float = 1.0,
    window: float = 2.0,
    p99_ms: float = 100.0,
    recover_within: float = 10.0,
    log=print,
    **play,
) -> dict:
    """The reconnect storm: ``run_play`` at ``pace`` while ``kill_after`` seconds into the
    measured window ``target`` is killed with -9 and started again ``restart_after`` seconds
    later (``faults.storm_task``). Figures ``storm``: its sockets, the seconds until they all
    reconnected and every screen caught up, and the latency p50/p99 in windows of ``window``
    seconds after the restart. Fails when a socket did not reconnect, a screen did not catch up,
    or no window ending within ``recover_within`` seconds of the restart, and once every socket
    was back, had its p99 at most ``p99_ms`` (and on the audit, stuck hands and server errors,
    as every run)."""

    def analyse(result, figures) -> list[str]:
        if not result.faults:
            return [f"{target} was not killed within the run"]
        event = dict(result.faults[0])
        start, end = result.started_at, result.started_at + result.seconds
        killed = event.pop("killed_at")
        restarted = event.pop("restarted_at", end)
        back = event["reconnected_s"] or 0.0  # seconds after the kill
        rows = windows(
            result.samples,
            start=restarted,
            end=end,
            width=window,
            unresolved_sent=result.unresolved_sent,
            asked_per_second=tables / pace,
        )
        storm = {
            **event,
            "killed_at_s": round(killed - start, 1),
            "before_kill": _span(result, start, killed, tables / pace),
            "kill_to_restart": _span(result, killed, restarted, tables / pace),
            "p99_bound_ms": p99_ms,
            # after the restart, at the end of a window that ends once every socket is back
            "p99_back_under_s": back_under(rows, p99_ms, not_before=back - (restarted - killed)),
            "p99_stays_under_s": stays_under(rows, p99_ms),
            "window_s": window,
            "windows_after_restart": rows,
        }
        figures["storm"] = storm
        failures = []
        if not event["sockets"]:
            failures.append(f"no socket was on {target} when it was killed")
        if event["reconnected"] < event["sockets"]:
            failures.append(f"only {event['reconnected']} of the {event['sockets']} sockets on {target} reconnected")
        elif event["caught_up_s"] is None:
            failures.append(f"not every screen caught up with its table's version after the kill of {target}")
        recovered = storm["p99_back_under_s"]
        if recovered is None or recovered > recover_within:
            failures.append(
                f"p99 not back under {p99_ms} ms within {recover_within}s of the restart "
                f"(first back under after {recovered}s; windows' p99 {[row['p99'] for row in rows]})"
            )
        return failures

    storm = storm_task(stack, target=target, after=kill_after, restart_after=restart_after, log=log)
    return run_play(stack, tables=tables, pace=pace, min_served=0.0, fault=storm, analyse=analyse, log=log, **play)


def run_neighbour(
    stack,
    *,
    tables: int,
    pace: float,
    hog_after: float = 10.0,
    hog_seconds: float = 20.0,
    core: int = 0,
    window: float = 2.0,
    min_served_hog: float = 0.5,
    min_served: float = 0.9,
    log=print,
    **play,
) -> dict:
    """The noisy neighbour: ``run_play`` at ``pace`` while, ``hog_after`` seconds into the
    measured window, a busy loop pinned to ``core`` runs for ``hog_seconds`` (``hog.hog_task``).
    Figures ``neighbour``: actions asked and served and the latency p50/p99 before, during and
    after the hog (by the time each action was sent), and per window of ``window`` seconds.
    Fails when the hog did not run its time, when fewer than ``min_served_hog`` of the actions
    asked during it were served, or fewer than ``min_served`` after it (and on the audit, stuck
    hands and server errors, as every run)."""

    def analyse(result, figures) -> list[str]:
        if not result.faults or "stopped_at" not in result.faults[0]:
            return ["the CPU hog did not start and stop within the run"]
        event = dict(result.faults[0])
        start, end = result.started_at, result.started_at + result.seconds
        on, off = event.pop("started_at"), event.pop("stopped_at")
        bounds = {"before": (start, on), "during": (on, off), "after": (off, end)}
        phases = {
            name: {"seconds": round(b - a, 1), **_span(result, a, b, tables / pace)} for name, (a, b) in bounds.items()
        }
        rows = windows(
            result.samples,
            start=start,
            end=end,
            width=window,
            unresolved_sent=result.unresolved_sent,
            asked_per_second=tables / pace,
        )
        figures["neighbour"] = {
            **event,
            "hog_from_s": round(on - start, 1),
            **phases,
            "window_s": window,
            "windows": rows,
        }
        failures = []
        if not event.get("ran_whole_time") or event.get("pinned_to") != [core]:
            failures.append(f"the CPU hog did not run pinned to core {core} for its time: {event}")
        for name, bound in (("during", min_served_hog), ("after", min_served)):
            ratio = phases[name]["served_ratio"] or 0
            if ratio < bound:
                failures.append(
                    f"{name} the hog: served {phases[name]['served']} of {phases[name]['asked']} actions asked "
                    f"({ratio:.0%} < {bound:.0%})"
                )
        return failures

    hog = hog_task(after=hog_after, seconds=hog_seconds, core=core, log_dir=stack.log_dir, log=log)
    return run_play(stack, tables=tables, pace=pace, min_served=0.0, fault=hog, analyse=analyse, log=log, **play)


def run_hostile_frames(stack, *, frames: int, seed: int = 3, exclude: tuple[str, ...] = (), log=print) -> dict:
    table, hand, clients = setup_table()
    before = snapshot(table.pk)
    offsets = stack.log_offsets()
    log(f"hostile: table {table.pk}, hand #{hand.number} seq {hand.sequence}, {len(clients)} sockets, {frames} frames")
    result = asyncio.run(
        run_hostile(
            ports=stack.ports,
            table_id=table.pk,
            sequence=hand.sequence,
            clients=clients,
            frames=frames,
            seed=seed,
            exclude=exclude,
        )
    )
    after = snapshot(table.pk)
    changed = {key: (before[key], after[key]) for key in before if before[key] != after[key]}
    errors = stack.errors_since(offsets)
    figures = {
        "frames": result.frames,
        "seconds": round(result.seconds, 1),
        "outcomes": dict(result.outcomes),
        "reconnects": result.reconnects,
        "unexpected": result.unexpected[:20],
        "unexpected_count": len(result.unexpected),
        "state_changes": {k: str(v)[:500] for k, v in changed.items()},
        "server_errors": errors[:10],
        "server_error_count": len(errors),
        "frame_kinds": len(result.kinds),
        "excluded_kinds": list(exclude),
        "audit": audit(),
    }
    failures = []
    if changed:
        failures.append(f"state changed: {list(changed)}")
    if errors:
        failures.append(f"{len(errors)} server errors, first: {errors[0][:800]}")
    if result.unexpected:
        failures.append(
            f"{len(result.unexpected)} frames without an error reply or clean close: {result.unexpected[:5]}"
        )
    if result.frames < frames:
        failures.append(f"only {result.frames} of {frames} frames sent")
    if not figures["audit"]["ok"]:
        failures.append(f"chip audit: {figures['audit']['problems']}")
    figures["failures"] = failures
    # The hostile table's hand would otherwise run until its long clock expires: close the table.
    from tables import services

    services.close_table(table_id=table.pk)
    return figures
