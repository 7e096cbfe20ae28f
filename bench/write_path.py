"""CPU per action of the write path, in one process laid out as daphne is: the event loop in
the main thread and the database work on the one worker thread of ``database_sync_to_async``.
Six players at one table play hand after hand (everyone checks or calls, so every hand
reaches the showdown): the deal, each ``services.act`` under the table lock, and what runs
when it commits (every screen of the table rendered once, handed to the loop and published
through the Redis channel layer).

``python -m bench.write_path`` (from the repository root, in .venv) recreates a database
(default ``poker_write_path``), flushes a Redis database (default 15) and plays ``--hands``
hands. It reports this process's CPU milliseconds per action (``time.process_time`` over
the hands, divided by their actions: the ORM, psycopg, rendering, serializing; PostgreSQL's
and Redis's own CPU are not in it, nor a socket's fan-out) and, as the peer in the same run,
the engine's own CPU for the same actions (replaying them with the engine alone): what the
write path costs beyond the rules.

Exit status 1 when the CPU per action is over ``--max-ms``, or when the chip audit is not
clean. Profile it with ``py-spy record -o profile.svg -- .venv/bin/python -m bench.write_path``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import uuid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.write_path", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--db", default="poker_write_path", help="database name, dropped and recreated")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/15", help="Redis database, flushed")
    parser.add_argument("--max-ms", type=float, default=None, help="fail when the CPU-ms per action is above")
    args = parser.parse_args(argv)

    from .load.stack import database_url, flush_redis_db, recreate_database

    os.environ.update(DATABASE_URL=database_url(args.db), REDIS_URL=args.redis, CACHE_URL=args.redis,
                      DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0", HAND_PAUSE_SECONDS="0",
                      LOG_LEVEL="ERROR")  # fmt: skip
    os.environ.setdefault("SECRET_KEY", "bench-write-path-secret-key-not-for-production-0b1c2d3e4f")
    recreate_database(args.db)
    flush_redis_db(args.redis)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    figures = play(args.hands)
    print(json.dumps(figures, indent=2))
    failures = []
    if not figures["audit_clean"]:
        failures.append("the chip audit found problems")
    if args.max_ms is not None and figures["cpu_ms_per_action"] > args.max_ms:
        failures.append(f"CPU per action {figures['cpu_ms_per_action']} ms > {args.max_ms} ms")
    if failures:
        print("FAILED: " + "; ".join(failures), file=sys.stderr)
        return 1
    print("PASSED")
    return 0


def play(hands: int) -> dict:
    from tables import services
    from tables.engine import Hand as EngineHand
    from tables.engine import HandConfig
    from tables.engine.cards import parse_cards
    from tables.engine.log import actions_from_events
    from tables.presentation.screens import room_languages
    from tables.realtime import sockets
    from tables.selectors.hands import logged_events

    from .load.report import audit
    from .load.world import make_table, make_user

    tag = uuid.uuid4().hex[:6]
    table = make_table(f"write-path-{tag}", action_seconds=300, countdown_seconds=60)
    # As in a room where sockets read the table in every language: its public screens are
    # rendered in each (they are rendered only in the languages some socket reads).
    sockets.counts.opened([sockets.table_language_key(table.pk, language) for language in room_languages()])
    users = {}
    for number in range(1, 7):
        users[number] = make_user(f"wp{tag}s{number}")
        services.take_seat(user=users[number], table_id=table.pk, seat_number=number, buy_in=table.max_buy_in,
                           post_big_blind_now=True, request_id=uuid.uuid4().hex)  # fmt: skip
    # As in daphne: the event loop in this thread, the database work on the one worker thread
    # ``database_sync_to_async`` uses, so a change's screens are handed to the loop and
    # published from it. CPU is this whole process's: the deal and the actions, their screens,
    # serializing and publishing them.
    played, wall = asyncio.run(_play_hands(hands, table, users))
    actions = len(wall)
    cpu_ms = played.pop() * 1000
    # The peer: the engine alone, replaying the same actions from each hand's log.
    logs = [
        (HandConfig.from_dict(h.config), parse_cards(h.deck), actions_from_events(logged_events(h))) for h in played
    ]
    started_cpu = time.process_time()
    engine_actions = 0
    for config, deck, logged in logs:
        EngineHand.replay(config, deck, logged)
        engine_actions += len(logged)
    engine_ms = (time.process_time() - started_cpu) * 1000 / max(1, engine_actions)
    for user in users.values():
        services.leave(user=user, table_id=table.pk)
    problems = audit()["problems"]
    return {
        "hands": len(played),
        "actions": actions,
        "cpu_ms_per_action": round(cpu_ms / actions, 2),
        "wall_ms_per_action": round(statistics.fmean(wall) * 1000, 2),
        "engine_cpu_ms_per_action": round(engine_ms, 3),
        "audit_clean": not problems,
    }


async def _play_hands(hands: int, table, users: dict) -> tuple[list, list[float]]:
    """Play ``hands`` hands, everyone checking or calling; returns (the hands, then the CPU
    seconds they took), and each action's wall time."""
    from channels.db import database_sync_to_async

    from tables import services
    from tables.engine import Action, ActionKind
    from tables.models import Hand, Table
    from tables.selectors.hands import rebuild

    def deal():
        Table.objects.filter(pk=table.pk).update(next_hand_at=None)
        services.start_hand_if_due(table_id=table.pk)
        hand = Hand.objects.filter(table=table).order_by("-number").first()
        return hand, rebuild(hand)

    played, wall = [], []
    started_cpu = time.process_time()
    for _ in range(hands):
        hand, engine = await database_sync_to_async(deal)()
        while hand.state == Hand.State.RUNNING:
            kind = "check" if engine.legal_actions().can_check else "call"
            started = time.perf_counter()
            hand = await database_sync_to_async(services.act)(
                table_id=table.pk, user=users[hand.turn_seat], kind=kind, amount=None, sequence=hand.sequence
            )
            wall.append(time.perf_counter() - started)
            if hand.state == Hand.State.RUNNING:
                engine.apply(Action(engine.to_act, ActionKind(kind)))
        played.append(hand)
    await asyncio.sleep(0.2)  # the last screens published (a wait, not CPU)
    return [*played, time.process_time() - started_cpu], wall


if __name__ == "__main__":
    sys.exit(main())
