"""A made Omaha hand in words: "Kings full of sevens", "Flush, ace high" (RULES 5.2, 5.3).

``best_hand`` finds the player's best hand on any board of three to five cards, always
exactly two hole cards and three board cards, so a player new to Omaha reads the hand the
showdown will count (four hearts on the board is not a flush for a player without two
hearts). ``describe_five`` words five cards as a ``HandDescription``: a template with its
parameters, like ``IllegalAction``: the engine stays free of Django and the table layer
translates the template and the rank names at the edge.

>>> from .cards import parse_cards
>>> hand = best_hand(parse_cards("Kh Kd 7c 2s"), parse_cards("Ks 7d 7h"))
>>> hand.words.text
'Kings full of sevens'
>>> describe_five(parse_cards("Ah Kh 9h 4h 2h")).text
'Flush, ace high'
>>> best_hand(parse_cards("Ah 2c 3d 4s"), parse_cards("Kh Qh Jh 9h")).words.text
'Ace high'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from phevaluator import _pheval

from .cards import CARD_COUNT, RANKS, SUITS
from .errors import _
from .evaluator import HOLE_CARD_COUNT, HandValue, category_of_rank

# (phevaluator has no type hints: this says what its native function returns.)
_evaluate_5card_rank: Callable[..., int] = _pheval.evaluate_5cards
_RANK_LIMIT = 7463  # strength = _RANK_LIMIT - phevaluator rank, as in ``evaluator``
_VALID_CARDS = frozenset(range(CARD_COUNT))
_BOARD_SIZES = (3, 4, 5)

# One name per rank, singular and plural, marked for the catalogue.
RANK_NAMES = (
    _("two"), _("three"), _("four"), _("five"), _("six"), _("seven"), _("eight"),
    _("nine"), _("ten"), _("jack"), _("queen"), _("king"), _("ace"),
)  # fmt: skip
RANK_PLURALS = (
    _("twos"), _("threes"), _("fours"), _("fives"), _("sixes"), _("sevens"), _("eights"),
    _("nines"), _("tens"), _("jacks"), _("queens"), _("kings"), _("aces"),
)  # fmt: skip

ROYAL_FLUSH = _("Royal flush")
STRAIGHT_FLUSH = _("Straight flush, {high} high")
FOUR_OF_A_KIND = _("Four of a kind, {quads}")
FULL_HOUSE = _("{trips} full of {pair}")
FLUSH = _("Flush, {high} high")
STRAIGHT = _("Straight, {low} to {high}")
THREE_OF_A_KIND = _("Three of a kind, {trips}")
TWO_PAIR = _("Two pair, {high} and {low}")
ONE_PAIR = _("Pair of {pair}")
HIGH_CARD = _("{high} high")


@dataclass(frozen=True, slots=True)
class HandDescription:
    """``template`` with ``{name}`` slots, ``params`` the rank names that fill them.

    ``text`` is the English, its first letter a capital."""

    template: str
    params: dict[str, str]

    @property
    def text(self) -> str:
        return capitalised(self.template.format(**self.params))


@dataclass(frozen=True, slots=True)
class BestHand:
    """The best hand so far: its value (``cards``: the two hole cards, then the three board cards) and words."""

    value: HandValue
    words: HandDescription


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def best_hand(hole: Sequence[int], board: Sequence[int]) -> BestHand:
    """The best two-hole-plus-three-board hand on a board of 3, 4 or 5 cards.

    Among equal hands the first in order is chosen (as ``evaluate_omaha`` does). Raises
    ``ValueError`` unless there are four hole cards and three to five board cards, all
    valid and distinct.
    """
    cards = {*hole, *board}
    if (
        len(hole) != HOLE_CARD_COUNT
        or len(board) not in _BOARD_SIZES
        or len(cards) != len(hole) + len(board)
        or not cards <= _VALID_CARDS
    ):
        raise ValueError(f"A hand so far needs 4 distinct hole cards and 3 to 5 board cards; got {hole!r}, {board!r}.")
    best_rank = _RANK_LIMIT
    best_cards: tuple[int, ...] = ()
    evaluate = _evaluate_5card_rank
    for hole_pair in combinations(hole, 2):
        for board_triple in combinations(board, 3):
            rank = evaluate(*hole_pair, *board_triple)
            if rank < best_rank:
                best_rank, best_cards = rank, hole_pair + board_triple
    value = HandValue(strength=_RANK_LIMIT - best_rank, category=category_of_rank(best_rank), cards=best_cards)
    return BestHand(value, describe_five(best_cards))


def describe_five(cards: Sequence[int]) -> HandDescription:
    """Five cards in words (their ranks and suits alone decide the words)."""
    if len(cards) != 5 or len(set(cards)) != 5 or not set(cards) <= _VALID_CARDS:
        raise ValueError(f"Five distinct cards are needed; got {cards!r}.")
    ranks = [card // len(SUITS) for card in cards]
    counts = Counter(ranks)
    # Ranks by how many there are, then by rank: a full house's trips come first.
    grouped = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({card % len(SUITS) for card in cards}) == 1
    straight_high = _straight_high(ranks)
    if straight_high is not None and flush:
        if straight_high == len(RANKS) - 1:
            return HandDescription(ROYAL_FLUSH, {})
        return HandDescription(STRAIGHT_FLUSH, {"high": RANK_NAMES[straight_high]})
    if shape[0] == 4:
        return HandDescription(FOUR_OF_A_KIND, {"quads": RANK_PLURALS[grouped[0]]})
    if shape == [3, 2]:
        return HandDescription(FULL_HOUSE, {"trips": RANK_PLURALS[grouped[0]], "pair": RANK_PLURALS[grouped[1]]})
    if flush:
        return HandDescription(FLUSH, {"high": RANK_NAMES[max(ranks)]})
    if straight_high is not None:
        low = RANK_NAMES[straight_high - 4] if straight_high > 3 else RANK_NAMES[len(RANKS) - 1]
        return HandDescription(STRAIGHT, {"low": low, "high": RANK_NAMES[straight_high]})
    if shape[0] == 3:
        return HandDescription(THREE_OF_A_KIND, {"trips": RANK_PLURALS[grouped[0]]})
    if shape[:2] == [2, 2]:
        return HandDescription(TWO_PAIR, {"high": RANK_PLURALS[grouped[0]], "low": RANK_PLURALS[grouped[1]]})
    if shape[0] == 2:
        return HandDescription(ONE_PAIR, {"pair": RANK_PLURALS[grouped[0]]})
    return HandDescription(HIGH_CARD, {"high": RANK_NAMES[max(ranks)]})


def _straight_high(ranks: list[int]) -> int | None:
    """The top rank of a straight (3 for the five-high wheel, A-2-3-4-5), or None."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if distinct == [0, 1, 2, 3, len(RANKS) - 1]:
        return 3
    return None
