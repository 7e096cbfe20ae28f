"""Latency, "action -> every screen updated": from sending an action frame until every socket
connected to that table has received a frame that reflects the change. If the fragments carry
``data-version="N"`` that is a frame with a version above the one known when the action was
sent; otherwise it is the next frame each socket receives after the send."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .backoff import Backoffs

if TYPE_CHECKING:
    from .bots import Bot

EXPIRE_AFTER = 10.0  # seconds: an action whose screens are not all updated by then is counted unresolved


@dataclass
class Stats:
    actions: int = 0
    doubles: int = 0
    silent: int = 0
    disconnects: int = 0
    connects: int = 0
    connect_failures: int = 0
    unexpected_closes: int = 0
    comebacks: int = 0
    top_ups: int = 0
    retries: int = 0
    chats: int = 0
    frames: int = 0
    refusals: Counter = field(default_factory=Counter)
    backoffs: Backoffs = field(default_factory=Backoffs)  # the waits before reconnecting, as the page's
    latencies: list[float] = field(default_factory=list)
    handshakes: list[float] = field(default_factory=list)  # ms from the TCP connect to the server's answer
    sent: list[float] = field(default_factory=list)  # when each of ``latencies``' actions was sent (monotonic)
    unresolved: int = 0
    unresolved_sent: list[float] = field(default_factory=list)  # when each unresolved action was sent
    cancelled: int = 0

    def served(self, m: Measurement, now: float) -> None:
        self.latencies.append(now - m.t0)
        self.sent.append(m.t0)

    def clear_samples(self) -> None:
        """Forget the latencies and actions so far (the warmup's)."""
        self.latencies.clear()
        self.sent.clear()
        self.unresolved_sent.clear()
        self.actions = 0


@dataclass(eq=False)
class Measurement:
    t0: float
    actor: Bot
    waiting: set
    base_version: int | None


class TableMonitor:
    """The sockets connected to one table and the actions whose screens are not all updated yet."""

    def __init__(self, stats: Stats):
        self.stats = stats
        self.sockets: set[Bot] = set()
        self.pending: list[Measurement] = []
        self.version: int | None = None

    def begin(self, actor: Bot) -> Measurement:
        m = Measurement(time.monotonic(), actor, set(self.sockets), self.version)
        self.pending.append(m)
        return m

    def on_frame(self, bot: Bot, version: int | None) -> None:
        if version is not None:
            self.version = max(self.version or 0, version)
        if not self.pending:
            return
        now = time.monotonic()
        for m in list(self.pending):
            if bot in m.waiting and (version is None or m.base_version is None or version > m.base_version):
                m.waiting.discard(bot)
                if not m.waiting:
                    self.stats.served(m, now)
                    self.pending.remove(m)

    def refused(self, bot: Bot) -> None:
        for m in list(self.pending):
            if m.actor is bot and bot in m.waiting:  # refused before any update reached the actor
                self.pending.remove(m)
                self.stats.cancelled += 1

    def detach(self, bot: Bot) -> None:
        """A socket closed. The actions it had not been shown yet stay pending for that bot: its
        next socket's snapshot resolves them (a screen that reconnects is updated only then), or
        they expire unresolved. A server going down is not every screen updated."""
        self.sockets.discard(bot)

    def expire(self, older_than: float = EXPIRE_AFTER) -> None:
        now = time.monotonic()
        for m in list(self.pending):
            if now - m.t0 > older_than:
                self.pending.remove(m)
                self.stats.unresolved += 1
                self.stats.unresolved_sent.append(m.t0)
