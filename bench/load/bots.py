"""Bots: real websocket clients that play from the HTML fragments the server sends them.

A bot is logged in by its session cookie (sent with the Origin header of the site's own
pages, which ``config.websocket_origin`` requires), reads its turn, the hand's sequence and
its legal actions from the ``#controls`` fragment exactly as a browser shows
them, and answers with the JSON frames the htmx forms would send. Profiles
make some bots go silent (the clock times them out), drop their connection
and come back, or double-submit.

Latency is measured in bench/load/latency.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from dataclasses import dataclass

from .backoff import Reconnect
from .latency import Stats, TableMonitor
from .screens import (
    ERROR_TEXT,
    REQUEST_ID,
    SEAT_SUMMARY,
    TOP_UP_MAX,
    VERSION,
    Controls,
    parse_controls,
    split_fragments,
)
from .stack import HOST
from .ws import ConnectionClosed, HandshakeError, WebSocket

# How long a bot waits, as a page behind the room's proxy does (``bench.topology``'s nginx,
# ``docs/operations.md``): the TCP connect fails over to the next daphne after CONNECT_TIMEOUT
# (a daphne that is down or not listening), but a daphne that has taken the connection is waited
# for (nginx waits ``proxy_read_timeout`` for its answer and passes the socket on to another
# only then; a page waits as long). A start-up or reconnect storm's slow answers show in the
# figures' ``handshake_ms``, not as sockets moved to a daphne that does not serve their table.
CONNECT_TIMEOUT = 5.0
ANSWER_TIMEOUT = 60.0
# The least wait a busy refusal asks for (tables.realtime.admission), in seconds.
RETRY_AFTER = re.compile(r'data-retry-after="(\d+)"')
# What the bots say in chat: plain words, markup and a link, which must arrive as text.
CHAT_LINES = ("gl", "nice hand", "<b>bold?</b>", "see https://example.test", "ty")


@dataclass
class Profile:
    think_mean: float = 0.05  # seconds, exponential
    think_max: float = 5.0
    p_silent: float = 0.0  # per turn: do nothing, the clock times the bot out
    p_double: float = 0.0  # per action: send the same frame twice
    p_disconnect: float = 0.0  # per action: drop the socket after acting (half abrupt, half clean)
    p_drop_on_turn: float = 0.0  # per turn: drop the socket before acting, come back, act on the snapshot
    p_chat: float = 0.0  # per action: say something in the table's chat too
    reconnect_delay: tuple[float, float] = (0.1, 1.5)


class Bot:
    def __init__(
        self,
        account,
        ports: list[int],
        harness: Harness,
        profile: Profile,
        rng: random.Random,
        route: str = "table",
        host: str = HOST,
    ):
        self.account, self.ports, self.h, self.profile, self.rng = account, ports, harness, profile, rng
        self.host = host  # the daphne processes' address, or a proxy's (one port, which hashes the path)
        # "table": every socket of a table goes to one daphne, as a proxy that hashes the
        # socket's path would send them; "user": spread by player.
        self.port_index = (account.table_id if route == "table" else account.user_id) % len(ports)
        self.ws: WebSocket | None = None
        self.monitor = harness.monitor(account.table_id)
        self.stats = harness.stats
        self.turn_seen: tuple[str, int] | None = None
        self.turn_acted: tuple[str, int] | None = None
        self.controls: Controls | None = None
        self.task: asyncio.Task | None = None
        self.sitting_out = False
        self.stack: int | None = None
        self.top_up: tuple[str, int] | None = None
        self.last_comeback = 0.0
        self.drained = False
        self.background: set[asyncio.Future] = set()
        self.version = -1  # the latest table version this bot's screen was shown
        self.port: int | None = None  # the daphne of the current (or last) socket
        self.connected_at = 0.0  # when that socket opened (monotonic)
        self.shown_at: float | None = None  # when its first frame (the snapshot) arrived
        self.lost_at: float | None = None  # when a socket last closed without the bot closing it
        self.reconnect = Reconnect(rng, harness.stats.backoffs)  # the page's waits before it tries again

    # --- connection --------------------------------------------------------------
    async def run(self) -> None:
        attempt = 0
        while not self.h.stop.is_set():
            port = self.ports[(self.port_index + attempt) % len(self.ports)]
            origin = f"http://{self.host}:{port}"
            started = time.monotonic()
            try:
                ws = await WebSocket.connect(
                    self.host,
                    port,
                    f"/ws/tables/{self.account.table_id}/",
                    headers={"Origin": origin, "Cookie": f"sessionid={self.account.session_key}"},
                    timeout=CONNECT_TIMEOUT,
                    answer_timeout=ANSWER_TIMEOUT,
                )
            except (TimeoutError, OSError, HandshakeError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                self.stats.connect_failures += 1
                attempt += 1  # the next try goes to the next daphne, as a proxy fails over
                await self.h.sleep(self.reconnect.failed())
                continue
            attempt = 0
            self.stats.connects += 1
            self.stats.handshakes.append((time.monotonic() - started) * 1000)
            self.port, self.connected_at, self.shown_at = port, time.monotonic(), None
            self.reconnect.opened(self.connected_at)
            wait = 0.0
            # A new socket's snapshot is a fresh screen: a turn it shows is played, even one seen or
            # acted on over the socket that died (the action may have died with it; a stale one is refused).
            self.turn_seen = self.turn_acted = None
            self.ws, self.drained = ws, False
            self.monitor.sockets.add(self)
            try:
                while True:
                    _, payload = await ws.recv()
                    self.on_frame(payload.decode("utf-8", "replace"))
            except ConnectionClosed as closed:
                if not getattr(ws, "on_purpose", False) and not self.h.stop.is_set():
                    self.stats.unexpected_closes += 1
                    self.lost_at = time.monotonic()
                    wait = self.reconnect.closed(closed.code if closed.clean else None, self.lost_at)
            finally:
                ws.abort()
                self.monitor.detach(self)
                self.ws = None
                self.controls = None
                if self.task and not self.task.done():
                    self.task.cancel()
            if getattr(ws, "on_purpose", False) and not self.h.stop.is_set():
                await self.h.sleep(self.rng.uniform(*self.profile.reconnect_delay))
            elif wait:
                await self.h.sleep(wait)

    async def drop(self, abrupt: bool) -> None:
        ws = self.ws
        if ws is None:
            return
        ws.on_purpose = True
        self.stats.disconnects += 1
        if abrupt:
            ws.abort()
        else:
            await ws.close()

    async def send(self, frame: dict) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send_text(json.dumps(frame))
            return True
        except ConnectionClosed:
            return False

    # --- reading the screen ------------------------------------------------------
    def on_frame(self, text: str) -> None:
        self.stats.frames += 1
        if self.shown_at is None:
            self.shown_at = time.monotonic()
        version = VERSION.search(text)
        if version:
            self.version = max(self.version, int(version.group(1)))
        self.monitor.on_frame(self, int(version.group(1)) if version else None)
        fragments = split_fragments(text)
        if "table-error" in fragments:
            m = ERROR_TEXT.search(fragments["table-error"])
            message = m.group(1).strip() if m else "?"
            if retry_after := RETRY_AFTER.search(fragments["table-error"]):
                self.reconnect.retry_after = float(retry_after.group(1))
            if message:
                self.stats.refusals[re.sub(r"\d+", "N", message)[:60]] += 1
                self.monitor.refused(self)
                if message.startswith("Top up before"):
                    self.sitting_out, self.stack = True, 0
                if message.startswith("The table is reconnecting") and self.controls is not None:
                    self.keep(asyncio.ensure_future(self.try_again(self.controls)))
        if "seat-panel" in fragments:
            self.read_seat_panel(fragments["seat-panel"])
        if "controls" in fragments:
            self.controls = parse_controls(fragments["controls"])
            turn = (self.controls.hand, self.controls.sequence) if self.controls else None
            if turn is not None and turn != self.turn_acted and turn != self.turn_seen:
                self.turn_seen = turn
                if self.task and not self.task.done():
                    self.task.cancel()
                self.task = asyncio.ensure_future(self.take_turn(self.controls))
        if self.h.draining.is_set() and not self.drained and self.ws is not None:
            self.drained = True
            self.keep(asyncio.ensure_future(self.send({"action": "sit_out"})))
        elif self.sitting_out and not self.h.draining.is_set():
            self.maybe_come_back()

    def read_seat_panel(self, html: str) -> None:
        if m := SEAT_SUMMARY.search(html):
            self.stack = int(m.group(2))
        self.sitting_out = 'class="sit-in-form"' in html
        rid, room = REQUEST_ID.search(html), TOP_UP_MAX.search(html)
        self.top_up = (rid.group(1), int(room.group(1))) if rid and room else None

    def keep(self, task: asyncio.Future) -> None:
        """Hold a reference to a fire-and-forget task until it is done (the loop keeps only weak ones)."""
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def maybe_come_back(self) -> None:
        now = time.monotonic()
        if now - self.last_comeback < 1.0:
            return
        self.last_comeback = now
        self.keep(asyncio.ensure_future(self.come_back()))

    async def come_back(self) -> None:
        await self.h.sleep(self.rng.uniform(0.05, 0.3))
        if self.stack == 0 and self.top_up:
            request_id, room = self.top_up
            frame = {"action": "top_up", "amount": room, "request_id": request_id}
            await self.send(frame)
            self.stats.top_ups += 1
            if self.rng.random() < self.profile.p_double:
                await self.send(frame)  # the same request id: the chips must move once
                self.stats.doubles += 1
        await self.send({"action": "sit_in", "big_blind": self.rng.choice(["now", "wait"])})
        self.stats.comebacks += 1

    # --- playing -----------------------------------------------------------------
    def choose(self, c: Controls) -> dict:
        r = self.rng.random()
        acts = c.actions
        wager = next((a for a in acts if a in ("bet", "raise")), None)
        passive = "check" if "check" in acts else "call"
        if wager and r < 0.15 and c.min_to is not None:
            amount = c.min_to if self.rng.random() < 0.6 else self.rng.randint(c.min_to, c.max_to)
            return {"action": wager, "amount": amount, "sequence": c.sequence}
        if r > 0.82 and "check" not in acts:
            return {"action": "fold", "sequence": c.sequence}
        return {"action": passive, "sequence": c.sequence}

    async def try_again(self, c: Controls) -> None:
        """The action met the database restarting and was not applied: a player clicks again."""
        await self.h.sleep(self.rng.uniform(0.3, 1.0))
        if self.controls is not None and (self.controls.hand, self.controls.sequence) == (c.hand, c.sequence):
            self.stats.retries += 1
            await self.take_turn(c)

    async def take_turn(self, c: Controls) -> None:
        p, draining = self.profile, self.h.draining.is_set()
        if not draining and self.rng.random() < p.p_silent:
            self.stats.silent += 1
            return
        if not draining and self.rng.random() < p.p_drop_on_turn:
            await self.drop(abrupt=self.rng.random() < 0.5)
            return  # reconnects, gets the snapshot, acts on it
        think = (
            0.01 if draining else min(self.rng.expovariate(1 / p.think_mean) if p.think_mean > 0 else 0, p.think_max)
        )
        await self.h.sleep(think)
        if (
            self.controls is None
            or (self.controls.hand, self.controls.sequence) != (c.hand, c.sequence)
            or self.ws is None
        ):
            return
        frame = self.choose(c)
        self.turn_acted = (c.hand, c.sequence)
        self.monitor.begin(self)
        if not await self.send(frame):
            return
        self.stats.actions += 1
        chatting = not draining and self.rng.random() < p.p_chat
        if chatting and await self.send({"action": "chat", "text": self.rng.choice(CHAT_LINES)}):
            self.stats.chats += 1
        if not draining and self.rng.random() < p.p_double:
            await asyncio.sleep(self.rng.uniform(0, 0.03))
            await self.send(frame)
            self.stats.doubles += 1
        if not draining and self.rng.random() < p.p_disconnect:
            await asyncio.sleep(self.rng.uniform(0, 0.3))
            await self.drop(abrupt=self.rng.random() < 0.5)


class Harness:
    """All bots in one event loop, plus a loop that samples the database."""

    def __init__(self):
        self.stop = asyncio.Event()
        self.draining = asyncio.Event()
        self.stats = Stats()
        self.monitors: dict[int, TableMonitor] = {}
        self.db = None  # session.Db, set by the run

    async def db_retrying(self, fn, *args, patience: float = 120.0):
        """``fn(*args)`` on the run's database thread, tried again while the database restarts."""
        from django.db import InterfaceError, OperationalError

        deadline = time.monotonic() + patience
        while True:
            try:
                return await self.db.run(fn, *args)
            except (OperationalError, InterfaceError):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)

    def monitor(self, table_id: int) -> TableMonitor:
        return self.monitors.setdefault(table_id, TableMonitor(self.stats))

    async def sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stop.wait(), timeout=max(0.0, seconds))

    async def expire_loop(self) -> None:
        while not self.stop.is_set():
            await self.sleep(1.0)
            for monitor in self.monitors.values():
                monitor.expire()
