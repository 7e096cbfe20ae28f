"""The examples of the "How to play" page, worked out by the engine itself (so the page can
never teach a rule the table does not play) and drawn with the table's own card markup."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.safestring import SafeString, mark_safe

from tables.engine.betting import PotLimitRound
from tables.engine.cards import parse_cards
from tables.engine.evaluator import evaluate_omaha
from tables.engine.events import card_texts

from .cards import card_views
from .fragments import card_row
from .wording import category_name


@dataclass(frozen=True)
class HandExample:
    """A hand and a board, and the best Omaha hand the engine makes of them (RULES 5.2)."""

    hole: SafeString
    board: SafeString
    best: SafeString  # the five cards, two from the hand and three from the board
    category: str


@dataclass(frozen=True)
class PotLimitExample:
    """Pot Limit 1/2, pre-flop: the first player's raise limits, and those of the next after a pot raise (RULES 3.6)."""

    small_blind: int
    big_blind: int
    pot_before: int
    first_min: int
    first_max: int
    second_min: int
    second_max: int


def hand_example(hole: str, board: str) -> HandExample:
    hole_cards, board_cards = parse_cards(hole), parse_cards(board)
    value = evaluate_omaha(hole_cards, board_cards)
    best = card_texts(value.cards)
    return HandExample(
        hole=_cards(card_texts(hole_cards), best),
        board=_cards(card_texts(board_cards), best),
        best=_cards(best, ()),
        category=category_name(value.category),
    )


def pot_limit_example() -> PotLimitExample:
    """Blinds 1 and 2 in a pot of 3: the first to act may raise to 4 up to 7 (call 2, then the
    pot of 5); after a raise to 7 the next may raise to 12 up to 24."""
    preflop = PotLimitRound(big_blind=2, opening_bet=2)
    first_min, first_max = preflop.bounds(my_bet=0, all_in_to=10_000, pot=3)
    preflop.record_wager(first_max)
    second_min, second_max = preflop.bounds(my_bet=0, all_in_to=10_000, pot=3 + first_max)
    return PotLimitExample(1, 2, 3, first_min, first_max, second_min, second_max)


def _cards(texts: list[str], highlight: Iterable[str]) -> SafeString:
    return mark_safe(card_row(card_views(texts, highlight)))
