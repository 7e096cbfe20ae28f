"""A shown hand in PokerStars' words: "two pair, Kings and Fives", "a flush, Ace high".

Built from what the engine's evaluator says of the hand (``HandShown``: its
category and the five cards it uses, ``evaluator.HAND_CATEGORIES``), so the
words name the same hand the engine ranked. Trackers read these words back
to file the hand; PokerStars adds a kicker ("- Ace kicker") only in some
cases, which the room does not try to imitate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tables.engine.cards import RANKS

RANK_NAMES = dict(
    zip(
        RANKS,
        ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"),
        strict=True,
    )
)
RANK_PLURALS = {rank: "Sixes" if name == "Six" else name + "s" for rank, name in RANK_NAMES.items()}
_FIVE_HIGH_STRAIGHT = "A5432"


def pokerstars_hand_name(category: str, best_five: Sequence[str]) -> str:
    """``category``: one of the evaluator's ``HAND_CATEGORIES``; ``best_five``: card texts ("Kd")."""
    grouped = _ranks_by_weight(best_five)  # the ranks, most copies first, then highest first
    top = grouped[0]
    if category == "High card":
        return f"high card {RANK_NAMES[top]}"
    if category == "One pair":
        return f"a pair of {RANK_PLURALS[top]}"
    if category == "Two pair":
        return f"two pair, {RANK_PLURALS[top]} and {RANK_PLURALS[grouped[1]]}"
    if category == "Three of a kind":
        return f"three of a kind, {RANK_PLURALS[top]}"
    if category == "Four of a kind":
        return f"four of a kind, {RANK_PLURALS[top]}"
    if category == "Full house":
        return f"a full house, {RANK_PLURALS[top]} full of {RANK_PLURALS[grouped[1]]}"
    if category == "Flush":
        return f"a flush, {RANK_NAMES[top]} high"
    if category in ("Straight", "Straight flush"):
        low, high = _straight_ends(grouped)
        if category == "Straight flush" and high == "A":
            return "a Royal Flush"
        article = "a straight" if category == "Straight" else "a straight flush"
        return f"{article}, {RANK_NAMES[low]} to {RANK_NAMES[high]}"
    raise ValueError(f"Unknown hand category {category!r}.")


def _ranks_by_weight(cards: Sequence[str]) -> list[str]:
    counts = Counter(card[0].upper() for card in cards)
    return sorted(counts, key=lambda rank: (counts[rank], RANKS.index(rank)), reverse=True)


def _straight_ends(ranks_high_first: list[str]) -> tuple[str, str]:
    """The lowest and highest card of a straight: the wheel runs Ace to Five."""
    if "".join(ranks_high_first) == _FIVE_HIGH_STRAIGHT:
        return "A", "5"
    return ranks_high_first[-1], ranks_high_first[0]
