"""Omaha High hand evaluation (RULES 5.2, 5.3).

A hand is exactly two of the player's four hole cards plus exactly three of
the five board cards; the best of those 60 combinations counts. Strengths
are ints where HIGHER IS BETTER; equal hands have equal strength whatever
their suits, so comparing strengths decides wins and splits.

The work is done by the C extension of ``phevaluator`` (pinned to 0.6.0),
whose ranks run from 1 (royal flush) to 7462 (7-5-4-3-2 offsuit), lower being
better. We call its native module ``_pheval`` directly: the public wrappers
convert every card through ``Card.to_id`` and cost about five times more per
call, which matters for equity and simulation loops. The tests compare these
results with the public API and with PokerKit, so an upgrade that changes the
native module fails loudly.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from phevaluator import _pheval

from .cards import CARD_COUNT, format_cards

# Bound once: a module attribute lookup per call is measurable on the hot path.
# (phevaluator has no type hints: these say what its native functions return.)
_evaluate_omaha_rank: Callable[..., int] = _pheval.evaluate_omaha_cards
_evaluate_5card_rank: Callable[..., int] = _pheval.evaluate_5cards

HOLE_CARD_COUNT = 4
BOARD_CARD_COUNT = 5

_WORST_RANK = 7462
# strength = _RANK_LIMIT - rank maps ranks 1..7462 onto strengths 7462..1.
_RANK_LIMIT = _WORST_RANK + 1
_VALID_CARDS = frozenset(range(CARD_COUNT))

# Best category first, with the worst (highest) phevaluator rank it covers.
_CATEGORY_LAST_RANKS = (
    ("Straight flush", 10),
    ("Four of a kind", 166),
    ("Full house", 322),
    ("Flush", 1599),
    ("Straight", 1609),
    ("Three of a kind", 2467),
    ("Two pair", 3325),
    ("One pair", 6185),
    ("High card", _WORST_RANK),
)
HAND_CATEGORIES = tuple(name for name, _ in _CATEGORY_LAST_RANKS)
"""Category names, best first."""


@dataclass(frozen=True, slots=True)
class HandValue:
    """An evaluated Omaha hand.

    ``strength``: higher is better, from 1 (7-5-4-3-2) to 7462 (royal flush).
    ``category``: one of ``HAND_CATEGORIES``.
    ``cards``: the five cards used, the two hole cards first then the three
    board cards, each group in the order given.

    Compare hands by ``strength``: two values with equal strength may differ
    in ``cards`` (a split pot) and are then unequal as objects.
    """

    strength: int
    category: str
    cards: tuple[int, ...]


def omaha_strength(hole: Sequence[int], board: Sequence[int]) -> int:
    """Return the strength of the best 2-hole + 3-board hand; higher wins.

    Raises ``ValueError`` unless there are 4 hole cards and 5 board cards,
    all valid and distinct.
    """
    # This is the hot path: one set build and one subset test validate the
    # deal; the detailed diagnosis runs only when something is wrong.
    cards = {*hole, *board}
    if (
        len(hole) != HOLE_CARD_COUNT
        or len(board) != BOARD_CARD_COUNT
        or len(cards) != HOLE_CARD_COUNT + BOARD_CARD_COUNT
        or not cards <= _VALID_CARDS
    ):
        raise ValueError(_describe_bad_cards(hole, board))
    return _RANK_LIMIT - _evaluate_omaha_rank(*board, *hole)


def evaluate_omaha(hole: Sequence[int], board: Sequence[int]) -> HandValue:
    """Return the best hand with its category and the five cards it uses.

    Among combinations of equal strength the first in order is chosen (hole
    pairs in ``itertools.combinations`` order, then board triples), so the
    result is deterministic. Same validation as ``omaha_strength``.
    """
    strength = omaha_strength(hole, board)
    best_rank = _RANK_LIMIT - strength
    for hole_pair in combinations(hole, 2):
        for board_triple in combinations(board, 3):
            if _evaluate_5card_rank(*hole_pair, *board_triple) == best_rank:
                return HandValue(
                    strength=strength,
                    category=category_of_rank(best_rank),
                    cards=hole_pair + board_triple,
                )
    raise AssertionError("phevaluator's Omaha and 5-card evaluators disagree.")


def category_of_rank(rank: int) -> str:
    """The category of a phevaluator rank (1 best)."""
    for name, last_rank in _CATEGORY_LAST_RANKS:
        if rank <= last_rank:
            return name
    raise AssertionError(f"phevaluator rank out of range: {rank}")


def _describe_bad_cards(hole: Sequence[int], board: Sequence[int]) -> str:
    if len(hole) != HOLE_CARD_COUNT:
        return f"Omaha needs {HOLE_CARD_COUNT} hole cards; got {len(hole)}."
    if len(board) != BOARD_CARD_COUNT:
        return f"Showdown needs {BOARD_CARD_COUNT} board cards; got {len(board)}."
    invalid = [card for card in (*hole, *board) if card not in _VALID_CARDS]
    if invalid:
        return f"Cards are ints from 0 to {CARD_COUNT - 1}; got {invalid!r}."
    return f"Duplicate cards in hole {format_cards(hole)} and board {format_cards(board)}."
