"""The four runs, shared by the command line (``python -m bench.load``) and the CI test.

Each takes a started ``Stack`` whose processes use the database this process
is connected to, and returns a dict of figures plus ``failures`` (empty = pass).
"""

from __future__ import annotations

import asyncio

from .bots import Profile
from .faults import fault_task
from .hostile import run_hostile, setup_table, snapshot
from .report import audit, measure_queries_in_process
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
    log=print,
) -> dict:
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
    faults = (
        fault_task(stack, count=kills, every=kill_every, seed=seed, targets=kill_targets, log=log) if kills else None
    )
    result = asyncio.run(
        play(
            accounts=accounts,
            ports=stack.ports,
            table_ids=table_ids,
            profile=profile,
            duration=duration,
            hands=hands,
            drain_timeout=drain_timeout,
            seed=seed,
            probe_dir=stack.log_dir if stack.probe else None,
            fault_task=faults,
            warmup=warmup,
            log=log,
        )
    )
    figures = result.summary()
    figures["tables"], figures["bots"], figures["web_processes"] = tables, len(accounts), len(stack.ports)
    # Tracebacks from a process we kill -9 on purpose are not server errors; any other is.
    figures["server_errors"] = stack.errors_since(offsets)
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
    if kills and len(figures["faults"]) < kills:
        failures.append(f"only {len(figures['faults'])} of {kills} faults injected")
    figures["failures"] = failures
    return figures


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
