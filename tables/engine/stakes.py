"""Blinds and bet sizes from a table's advertised stakes (RULES 2.4, 2.5, 7.1, 7.2)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Blinds:
    small_blind: int
    big_blind: int
    big_bet: int  # turn and river bet in Limit; 0 in Pot Limit


def limit_blinds(*, small_bet: int, big_bet: int, small_blind_override: int | None = None) -> Blinds:
    """Limit "small bet / big bet": the big blind is the small bet and the small
    blind is half of it rounded down, unless the table sets another (RULES 2.4)."""
    small_blind = small_bet // 2 if small_blind_override is None else small_blind_override
    return Blinds(small_blind=small_blind, big_blind=small_bet, big_bet=big_bet)


def pot_limit_blinds(*, small_blind: int, big_blind: int) -> Blinds:
    """Pot Limit "small blind / big blind", both from the table (RULES 2.5)."""
    return Blinds(small_blind=small_blind, big_blind=big_blind, big_bet=0)
