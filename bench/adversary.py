"""A hostile crowd at one table, frame by frame, through the real websocket consumers.

``python -m bench.adversary --steps 100000`` (from the repository root, in .venv) recreates a
database (default ``poker_adversary``), migrates it and plays ``--steps`` random steps: players
open and close sockets, sit, leave, top up, sit out and in, act (legal, illegal, stale or out
of turn), log out and back in, close their account (a newcomer takes their place), send
garbage, and replay any frame they sent before, on the same socket or on a new one (a resend
queued while offline), leave and sit straight down again with less, as much or more than they
left with (RULES 7.5); the clock times turns out, deals, and jumps minutes ahead to stand up
whoever sat out past the table's limit (RULES 7.6). After every step the chips and those rules
are checked:

- the chip audit is clean (ledger balanced, escrow = chips at the table, every seat paid for);
- every player owns exactly what the ledger issued to them plus what they won or lost in
  complete hands;
- nobody sat down again within the window with less than they left with (RULES 7.5), and
  nobody sat out past the table's limit when the clock looked (RULES 7.6).

Exit status 1 on the first broken check. ``--crowds N`` plays N independent crowds side by side
(one process and database each) and shares the steps among them, to use a machine's cores.
The suite runs the same driver for a few thousand
steps (tests/web/test_adversary_frames.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.adversary_world import (
    SEATS,
    ChecksFailed,
    chip_problems,
    deal_next,
    hands_played,
    idle_clock,
    legal_actions,
    likely_player,
    log_out,
    newcomer,
    on_db,
    rule_problems,
    running_hand,
    setup_world,
    stack_left_with,
    time_runs_out,
    try_closing_account,
)
from bench.sessions import logged_in_session

# A frame whose answer marks the end of the one sent before it: the consumer takes frames in order.
PROBE = json.dumps({"action": "probe"})
PROBE_ANSWER = "Unknown action."
# How long a reply may take: generous, since a loaded machine is slow, not wrong (a reply that
# never comes still fails the run).
REPLY_SECONDS = 120
_REQUEST_ID = re.compile(r'name="request_id" value="([^"]+)"')
# How often each kind of step comes: mostly play, with every hostile move mixed in.
STEP_WEIGHTS = {
    "act": 8, "deal": 2, "clock": 1, "sit": 2, "sit_in": 1.5, "sit_out": 0.5, "leave": 0.4, "top_up": 1,
    "replay": 3, "garbage": 0.5, "open": 0.7, "close": 0.5, "log_out": 0.2, "come_back": 0.2, "idle": 0.05,
}  # fmt: skip
# Now and then a player closes their account (accounts/closing.py); a newcomer takes their place.
STEP_WEIGHTS["close_account"] = 0.05
GARBAGE = ["{", "null", "[1]", '{"action": "raise", "amount": "lots", "sequence": "0"}', "x" * 5000,
           json.dumps({"action": "call", "sequence": {"$gt": 0}})]  # fmt: skip


@dataclass
class Socket:
    player: int
    communicator: object  # channels.testing.WebsocketCommunicator
    open: bool = True
    request_id: str = ""  # the seat forms' request id it was sent last, as the page's form holds it
    closed_by_server: bool = False  # the consumer still has to hear that the socket is gone

    def took(self, output: dict) -> str:
        """Note one message from the server; returns its text ("" for a close: see ``closed``)."""
        if output["type"] == "websocket.close":
            self.open = False
            self.closed_by_server = True
            return ""
        text = output.get("text", "")
        found = _REQUEST_ID.search(text)
        if found:
            self.request_id = found.group(1)
        return text


@dataclass
class Adversary:
    """The crowd: ``players`` logged in (a session each), a table, every frame they ever sent."""

    rng: random.Random
    table: object
    players: list
    sockets: list[Socket] = field(default_factory=list)
    sent: list[tuple[int, str]] = field(default_factory=list)
    sessions: dict[int, object] = field(default_factory=dict)
    counts: Counter = field(default_factory=Counter)
    closed: list = field(default_factory=list)

    # --- sockets -----------------------------------------------------------------------------

    async def open_socket(self, player: int) -> Socket:
        from channels.routing import URLRouter
        from channels.testing import WebsocketCommunicator

        from tables.realtime.routing import websocket_urlpatterns

        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tables/{self.table.pk}/")
        communicator.scope.update(user=self.players[player], session=await self._session(player),
                                  client=("127.0.0.1", 40000 + player))  # fmt: skip
        connected, _ = await communicator.connect()
        socket = Socket(player, communicator, open=connected)
        if connected:
            self.sockets.append(socket)
            socket.took(await communicator.receive_output(REPLY_SECONDS))  # the snapshot (or a refusal and a close)
        return socket

    async def _session(self, player: int):
        if player not in self.sessions:
            self.sessions[player] = await on_db(logged_in_session, self.players[player])
        return self.sessions[player]

    async def close_socket(self, socket: Socket) -> None:
        if socket.open:
            socket.open = False
            await socket.communicator.disconnect()

    def live(self, player: int | None = None) -> list[Socket]:
        return [s for s in self.sockets if s.open and (player is None or s.player == player)]

    async def socket_of(self, player: int) -> Socket:
        mine = self.live(player)
        if mine and self.rng.random() < 0.9:
            return self.rng.choice(mine)
        return await self.open_socket(player)

    async def close_account(self, player: int) -> None:
        """The player closes their account (refused while they are dealt into a hand): their
        sockets close, and a newcomer takes their place in the crowd. The closed account stays
        checked (``closed``): it must own nothing, as the ledger says."""
        if await on_db(try_closing_account, self.players[player]):
            self.closed.append(self.players[player])
            self.sessions.pop(player, None)
            for socket in self.live(player):
                await self.close_socket(socket)
            self.players[player] = await on_db(newcomer, self.players[player], len(self.closed))

    # --- frames ------------------------------------------------------------------------------

    async def send(self, socket: Socket, text: str, *, remember: bool = True) -> list[str]:
        """Send one frame and wait until the consumer has dealt with it; returns what it sent back."""
        if remember:
            self.sent.append((socket.player, text))
        communicator = socket.communicator
        await communicator.send_to(text_data=text)
        await communicator.send_to(text_data=PROBE)
        replies = []
        while socket.open:
            reply = socket.took(await communicator.receive_output(REPLY_SECONDS))
            if reply.startswith('<div id="table-error"') and PROBE_ANSWER in reply:
                break
            replies.append(reply)
        return replies

    async def _drain(self, socket: Socket) -> None:
        """Take what the server pushed meanwhile (other players' changes), without waiting."""
        queue = socket.communicator.output_queue
        while socket.open and not queue.empty():
            socket.took(queue.get_nowait())

    # --- one step ----------------------------------------------------------------------------

    async def step(self) -> str:
        rng = self.rng
        kind = rng.choices(list(STEP_WEIGHTS), weights=list(STEP_WEIGHTS.values()))[0]
        if kind == "act" and rng.random() < 0.8 and not await on_db(running_hand, self.table):
            kind = "deal"  # mostly no point acting with no hand: deal one
        self.counts[kind] += 1
        player = rng.randrange(len(self.players))
        if rng.random() < 0.8:  # mostly a player the step makes sense for; else anyone
            player = await on_db(likely_player, kind, self.table, self.players, rng) or player
        if kind == "open":
            await self.open_socket(player)
        elif kind == "close":
            mine = self.live(player)
            if mine:
                await self.close_socket(rng.choice(mine))
        elif kind == "clock":
            await on_db(time_runs_out, self.table)
        elif kind == "deal":
            await on_db(deal_next, self.table)
        elif kind == "close_account":
            await self.close_account(player)
        elif kind == "idle":
            await on_db(idle_clock, self.table, rng.choice([5, 10, 11, 30]))
        elif kind == "come_back":
            socket = await self.socket_of(player)
            if socket.open:
                await self.send(socket, json.dumps({"action": "leave"}))
                left_with = await on_db(stack_left_with, self.table, self.players[player])
                amount = rng.choice([40, left_with, left_with - 1, left_with + 1, 10**6])
                await self.send(socket, json.dumps({"action": "sit", "seat_number": str(rng.randint(1, SEATS)),
                                                    "buy_in": str(amount), "big_blind": "wait",
                                                    "request_id": socket.request_id}))  # fmt: skip
        elif kind == "log_out":
            await on_db(log_out, self.sessions.pop(player, None))
        elif kind == "replay":
            if self.sent:
                who, text = rng.choice(self.sent)
                await self.send(await self.socket_of(who), text, remember=False)
        else:
            socket = await self.socket_of(player)
            if socket.open:
                await self.send(socket, await self._frame(kind, socket))
        for socket in self.live():
            await self._drain(socket)
        for socket in [s for s in self.sockets if s.closed_by_server]:
            socket.closed_by_server = False
            await socket.communicator.disconnect()  # as daphne tells the consumer after a close
        self.sockets = [s for s in self.sockets if s.open]
        return kind

    async def _frame(self, kind: str, socket: Socket) -> str:
        rng = self.rng
        request_id = socket.request_id if rng.random() < 0.85 else uuid.uuid4().hex
        valid = rng.random() < 0.75  # mostly what a page would send, else anything
        amount = rng.choice([40, 100, 150, 200] if valid else [0, 1, 39, 201, 10**6])
        if kind == "garbage":
            return rng.choice(GARBAGE)
        if kind == "sit":
            seat = rng.randint(1, SEATS) if valid else rng.choice([0, SEATS + 1])
            if valid and rng.random() < 0.5:  # back within the window: what they left with (RULES 7.5)
                amount = await on_db(stack_left_with, self.table, self.players[socket.player]) or amount
            return json.dumps({"action": "sit", "seat_number": str(seat), "buy_in": str(amount),
                               "big_blind": rng.choice(["wait", "now"]), "request_id": request_id})  # fmt: skip
        if kind == "top_up":
            return json.dumps({"action": "top_up", "amount": str(amount), "request_id": request_id})
        if kind == "sit_in":
            return json.dumps({"action": "sit_in", "big_blind": rng.choice(["wait", "now"])})
        if kind in ("leave", "sit_out"):
            return json.dumps({"action": kind})
        legal, sequence = await on_db(legal_actions, self.table)
        action = {"action": rng.choice(["fold", "check", "call", "bet", "raise"]), "sequence": str(sequence)}
        if legal is not None and rng.random() < 0.7:
            options = ["fold", "check" if legal.can_check else "call"] + ([legal.bet_kind] if legal.bet_kind else [])
            action["action"] = rng.choice(options)
            if action["action"] in ("bet", "raise"):
                action["amount"] = str(rng.randint(legal.min_to, legal.max_to))
        elif rng.random() < 0.5:
            action["amount"] = str(rng.randint(1, 300))
        if rng.random() < 0.1:
            action["sequence"] = str(sequence + rng.choice([-1, 1]))
        return json.dumps(action)


async def play(*, steps: int, seed: int, table, players, log=print, check_every: int = 1) -> dict:
    """Play ``steps`` steps; raises ChecksFailed (with the step and what broke) at the first problem."""
    adversary = Adversary(random.Random(seed), table, players)
    started = time.monotonic()
    try:
        for number in range(1, steps + 1):
            kind = await adversary.step()
            if number % check_every == 0 or number == steps:
                problems = await on_db(chip_problems, [*players, *adversary.closed]) + await on_db(rule_problems, table)
                if problems:
                    raise ChecksFailed(f"step {number} ({kind}): {problems}")
            if number % 1000 == 0:
                log(f"{number} steps, {time.monotonic() - started:.0f} s, clean")
    finally:
        for socket in adversary.live():
            await adversary.close_socket(socket)
    return {"steps": steps, "seed": seed, "seconds": round(time.monotonic() - started, 1),
            "kinds": dict(adversary.counts), "frames_sent": len(adversary.sent),
            "hands": await on_db(hands_played, table)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.adversary", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--steps", type=int, default=100_000, help="steps in all, shared among the crowds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default="poker_adversary", help="database name, dropped and recreated")
    parser.add_argument("--figures", help="also write the figures (JSON) to this file")
    parser.add_argument("--crowds", type=int, default=1,
                        help="independent crowds played side by side, each in its own process and database "
                             "(<db>_<k>) with seed <seed>+k; a machine's cores are used, the steps are not shortened")  # fmt: skip
    args = parser.parse_args(argv)
    if args.crowds > 1:
        return _play_crowds(args)

    from .load.stack import database_url, recreate_database

    os.environ.update(DATABASE_URL=database_url(args.db), DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1",
                      HAND_PAUSE_SECONDS="0", WEBSOCKET_FRAME_BURST="1000000", LOG_LEVEL="ERROR")  # fmt: skip
    os.environ.pop("REDIS_URL", None)  # the in-process channel layer: consumers and driver share one loop
    os.environ.pop("CACHE_URL", None)
    recreate_database(args.db)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    table, players = setup_world(uuid.uuid4().hex[:6])
    print(f"database {args.db} (recreated): {args.steps} steps, seed {args.seed}", flush=True)
    try:
        figures = asyncio.run(play(steps=args.steps, seed=args.seed, table=table, players=players,
                                   log=lambda line: print(f"{args.db}: {line}", flush=True)))  # fmt: skip
    except ChecksFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    print(json.dumps(figures, indent=2))
    if args.figures:
        with open(args.figures, "w") as file:
            json.dump(figures, file)
    print("PASSED")
    return 0


def _play_crowds(args) -> int:
    """Run ``args.crowds`` single-crowd runs at once and add up their figures; fails if any fails."""
    import subprocess
    import tempfile

    started = time.monotonic()
    shares = [args.steps // args.crowds + (k < args.steps % args.crowds) for k in range(args.crowds)]
    with tempfile.TemporaryDirectory() as folder:
        files = [os.path.join(folder, f"crowd-{k}.json") for k in range(args.crowds)]
        runs = [
            subprocess.Popen([sys.executable, "-m", "bench.adversary", "--steps", str(steps),
                              "--seed", str(args.seed + k), "--db", f"{args.db}_{k}", "--figures", files[k]])
            for k, steps in enumerate(shares)
        ]  # fmt: skip
        failed = [k for k, run in enumerate(runs) if run.wait() != 0]
        if failed:
            print(f"FAILED: crowds {failed}", file=sys.stderr)
            return 1
        figures = [json.loads(Path(path).read_text()) for path in files]
    added = {
        "steps": sum(f["steps"] for f in figures),
        "crowds": args.crowds,
        "seeds": [f["seed"] for f in figures],
        "seconds": round(time.monotonic() - started, 1),
        "kinds": {kind: sum(f["kinds"].get(kind, 0) for f in figures) for kind in STEP_WEIGHTS},
        "frames_sent": sum(f["frames_sent"] for f in figures),
        "hands": {what: sum(f["hands"][what] for f in figures) for what in figures[0]["hands"]},
    }
    print(json.dumps(added, indent=2))
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
