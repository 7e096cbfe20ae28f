"""Limit stakes that poker trackers accept in a PokerStars hand history.

A tracker reads Limit stakes from the header ("Omaha Limit (10/20)") and looks the
big bet up in its own copy of PokerStars' limit ladder to learn the blinds; a big
bet it does not know (12/24) makes it reject the hand, and where PokerStars' small
blind differs from RULES 2.4's half of the small bet rounded down (15/30: 10, not 7)
it files the hand under blinds that were not posted. The table below is that ladder
in whole chips (big bet -> small blind, small bet). The room still writes what was
posted; this only steers the stakes an operator picks (the Table admin).
Pot Limit stakes are read from the header as they are: any small blind/big blind.
"""

from __future__ import annotations

# PokerStars' fixed-limit ladder (big bet: (small blind, small bet = big blind)), whole chips only.
POKERSTARS_LIMIT_LADDER: dict[int, tuple[int, int]] = {
    4: (1, 2),
    6: (1, 3),
    8: (2, 4),
    10: (2, 5),
    16: (4, 8),
    20: (5, 10),
    30: (10, 15),
    40: (10, 20),
    50: (10, 25),
    60: (15, 30),
    80: (20, 40),
    100: (25, 50),
    150: (50, 75),
    200: (50, 100),
    400: (100, 200),
    500: (100, 250),
    600: (150, 300),
    800: (200, 400),
    1000: (250, 500),
    2000: (500, 1000),
    4000: (1000, 2000),
    10000: (2500, 5000),
    20000: (5000, 10000),
    40000: (10000, 20000),
}


def limit_stakes_trackers_accept() -> list[str]:
    """ "small bet/big bet", with the small blind where RULES 2.4's default is not PokerStars' own."""
    labels = []
    for big_bet, (small_blind, small_bet) in POKERSTARS_LIMIT_LADDER.items():
        label = f"{small_bet}/{big_bet}"
        labels.append(label if small_bet // 2 == small_blind else f"{label} (small blind {small_blind})")
    return labels


def tracker_stakes_problem(*, small_bet: int, big_bet: int, small_blind: int) -> str | None:
    """Why trackers would misfile a Limit table's hands, or None when they read them as posted."""
    known = POKERSTARS_LIMIT_LADDER.get(big_bet)
    if known is None or known[1] != small_bet:
        return (
            f"Trackers reading PokerStars hand histories do not know Limit {small_bet}/{big_bet} and reject its "
            f"hands. Stakes they accept: {', '.join(limit_stakes_trackers_accept())}."
        )
    if known[0] != small_blind:
        return (
            f"At Limit {small_bet}/{big_bet} trackers expect a small blind of {known[0]}, as PokerStars posts it, "
            f"not {small_blind}: set the small blind to {known[0]} so that they file the hands as posted."
        )
    return None
