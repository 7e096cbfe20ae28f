"""How long a bot waits before it opens its socket again: as the page does
(static/js/connection.js and htmx's websocket extension), so a run's reconnects load the
server as a room of browsers would.

- 1013 ("try again later", a busy server's refusal, ``tables.realtime.admission``): a random
  wait up to a bound that doubles with each busy refusal in a row, from 1 s to 30 s ("full
  jitter"); the count starts again once a socket has stayed open 1.5 s. When the refusal's
  frame asks for a least wait (``data-retry-after``), the bound is at least that, and the wait
  between its half and the whole of it.
- 1001 ("going away", a server stopping gracefully): 0.2 to 1 s.
- Any other close the bot did not ask for (1006: the connection lost, or a handshake that
  failed; 1011, 1012...): htmx's backoff, 250 ms doubling to 5 s, times 0.5 to 1, its count
  starting again at every open, except that a socket lost before it settled (1.5 s) counts as
  one more loss in a row (the page counts them itself), and from the sixth loss in a row the
  bound goes on doubling to 30 s: a server that takes sockets and drops them at once is
  swamped, and every page coming back within 250 ms would keep it so.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

TRY_AGAIN_LATER = 1013
GOING_AWAY = 1001
ABNORMAL = 1006  # no close frame: the connection lost, or the handshake failed
SETTLED_S = 1.5
BUSY_BASE_S, BUSY_CAP_S = 1.0, 30.0
LOST_BASE_S, LOST_CAP_S = 0.25, 5.0
LOST_LONG_CAP_S, LOST_LONG_AFTER = 30.0, 6  # the bound past 5 s, from that many losses in a row


@dataclass
class Backoffs:
    """What the bots' reconnects waited, by kind (``busy``, ``going_away``, ``lost``)."""

    closes: Counter = field(default_factory=Counter)  # close codes of the sockets the bots did not close
    waits: Counter = field(default_factory=Counter)
    seconds: Counter = field(default_factory=Counter)

    def figures(self) -> dict:
        return {
            "close_codes": {str(code): n for code, n in self.closes.most_common()},
            "backoffs": dict(self.waits),
            "backoff_seconds": {kind: round(s, 1) for kind, s in self.seconds.items()},
            "backoff_mean_s": {kind: round(self.seconds[kind] / n, 2) for kind, n in self.waits.items() if n},
        }


class Reconnect:
    """One bot's reconnect state: its busy refusals in a row, and htmx's count of tries."""

    def __init__(self, rng: random.Random, backoffs: Backoffs) -> None:
        self.rng, self.backoffs = rng, backoffs
        self.busy = 0
        self.retries = 0
        self.opened_at: float | None = None
        self.retry_after = 0.0  # the least wait the last refusal's frame asked for, in seconds
        self.unsettled = 0  # sockets lost before they settled, in a row (the page's count)

    def opened(self, now: float) -> None:
        self.retries = 0  # htmx: its count starts again at every open
        self.opened_at = now

    def closed(self, code: int | None, now: float) -> float:
        """The seconds to wait after a close the bot did not ask for (``None``: no close frame)."""
        code = ABNORMAL if code is None else code
        self.backoffs.closes[code] += 1
        settled = self.opened_at is not None and now - self.opened_at >= SETTLED_S
        if settled:
            self.busy = 0  # the page's status settled: a socket stayed open a while
        if code not in (TRY_AGAIN_LATER, GOING_AWAY):
            self.unsettled = 0 if settled else self.unsettled + 1
        self.opened_at = None
        if code == TRY_AGAIN_LATER:
            self.busy += 1
            bound = min(BUSY_CAP_S, BUSY_BASE_S * 2 ** (self.busy - 1))
            if self.retry_after:
                bound, self.retry_after = max(bound, self.retry_after), 0.0
                return self._wait("busy", bound / 2 + self.rng.random() * bound / 2)
            return self._wait("busy", self.rng.random() * bound)
        if code == GOING_AWAY:
            return self._wait("going_away", 0.2 + self.rng.random() * 0.8)
        return self._lost()

    def failed(self) -> float:
        """A handshake that failed: one more loss in a row."""
        self.unsettled += 1
        return self._lost()

    def _lost(self) -> float:
        """htmx's backoff, longer past the sixth loss in a row (counting the sockets lost
        before they settled)."""
        lost = max(self.retries, self.unsettled)
        cap = LOST_CAP_S if lost < LOST_LONG_AFTER else LOST_LONG_CAP_S
        wait = min(cap, LOST_BASE_S * 2**lost) * (0.5 + self.rng.random() / 2)
        self.retries += 1
        return self._wait("lost", wait)

    def _wait(self, kind: str, seconds: float) -> float:
        self.backoffs.waits[kind] += 1
        self.backoffs.seconds[kind] += seconds
        return seconds
