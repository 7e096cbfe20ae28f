"""The one seam through which another app runs tables of its own: tournament tables (RULES 8).

The tables app knows nothing of tournaments. The tournaments app registers ``TableRules``
when it starts; for a table flagged ``is_tournament`` the services then ask it for each
hand's stakes (RULES 8.3, 8.4) and whether the table may deal now (balancing, breaks,
hand-for-hand: RULES 8.3, 8.7-8.9). Clock listeners run at every tick of the table clock
(``clock.run_clock``) before hands are dealt: tournaments start, levels rise and players
are moved there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from tables.models import Table


@dataclass(frozen=True)
class HandStakes:
    """The amounts of one hand (the engine checks them: ``check_stakes``)."""

    small_blind: int
    big_blind: int
    big_bet: int
    big_blind_ante: int = 0
    level: int | None = None  # the tournament level the stakes are of (RULES 8.3); kept with the hand


class TableRules(Protocol):
    def stakes(self, table: Table, now: datetime) -> HandStakes:
        """The stakes of the hand about to be dealt at ``table`` (the caller holds its lock)."""
        ...

    def may_deal(self, table: Table, now: datetime) -> bool:
        """Whether ``table`` may deal its next hand now."""
        ...


_rules: list[TableRules] = []
_clock_listeners: list[Callable[[datetime], None]] = []


def register(rules: TableRules) -> None:
    """Run tournament tables by ``rules`` (one provider; registering again replaces it)."""
    _rules[:] = [rules]


def rules_for(table: Table) -> TableRules | None:
    """The rules a tournament table runs by; None for a cash table."""
    if not table.is_tournament or not _rules:
        return None
    return _rules[0]


def on_clock(listener: Callable[[datetime], None]) -> None:
    if listener not in _clock_listeners:
        _clock_listeners.append(listener)


def run_clock_listeners(now: datetime) -> None:
    for listener in _clock_listeners:
        listener(now)
