"""The player's hand in words, from the flop on: exactly two hole cards and three board cards (RULES 5.2, 5.3)."""

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engine import hand_words
from tables.engine.cards import format_cards, parse_cards
from tables.engine.evaluator import evaluate_omaha
from tables.engine.hand_words import best_hand, describe_five

from .test_package_docs import run_examples


def words(hole: str, board: str) -> str:
    return best_hand(parse_cards(hole), parse_cards(board)).words.text


@pytest.mark.parametrize(
    ("hole", "board", "said"),
    [
        ("Kh Kd 7c 2s", "Ks 7d 7h", "Kings full of sevens"),
        ("Ah Kh 2c 3d", "Qh 9h 4h", "Flush, ace high"),
        ("Ah Kh 2c 3d", "Qh Jh Th", "Royal flush"),
        ("9s 8s 2c 3d", "7s 6s 5s", "Straight flush, nine high"),
        ("Ac 2d Kh Kc", "3s 4h 5c", "Straight, ace to five"),
        ("9c 8d Kh Kc", "7s 6h 5c", "Straight, five to nine"),
        ("Ac Ad 2h 3c", "As Ah Kd", "Four of a kind, aces"),
        ("Qc Qd 2h 3c", "Qs 9h 5d", "Three of a kind, queens"),
        ("Qc 9d 2h 3c", "Qs 9h 5d", "Two pair, queens and nines"),
        ("Tc Td 2h 3c", "Ks 9h 5d", "Pair of tens"),
        ("Ac 7d 2h 3c", "Ks 9h 5d", "Ace high"),
    ],
)
def test_each_kind_of_hand_has_its_words(hole, board, said):
    assert words(hole, board) == said


def test_rule_5_2_four_of_a_suit_on_the_board_is_no_flush_without_two_in_the_hand():
    # Four hearts on the turn and one heart in the hand: the player has no flush.
    assert words("Ah 2c 3d 4s", "Kh Qh Jh 9h") == "Ace high"
    assert words("Ah 8h 3d 4s", "Kh Qh Jh 2c") == "Flush, ace high"


def test_rule_5_2_trips_on_the_board_play_with_exactly_two_hole_cards():
    # The board's three sevens are the three board cards; the two hole cards make the rest.
    assert words("Kc Kd 2h 3c", "7s 7h 7d") == "Sevens full of kings"
    assert words("Kc 7c 2h 3c", "7s 7h Kd") == "Sevens full of kings"
    assert words("Ac Kd 2h 3c", "7s 7h 7d") == "Three of a kind, sevens"


def test_the_five_cards_are_two_from_the_hand_and_three_from_the_board_on_every_street():
    hole, full_board = parse_cards("Kh Kd 7c 2s"), parse_cards("Ks 7d 7h 2c 3c")
    for size in (3, 4, 5):
        board = full_board[:size]
        cards = best_hand(hole, board).value.cards
        assert set(cards[:2]) <= set(hole) and set(cards[2:]) <= set(board) and len(set(cards)) == 5


@given(st.permutations(range(52)).map(lambda cards: (cards[:4], cards[4:9])))
def test_on_the_river_the_best_hand_is_the_showdown_s(deal):
    """RULES 5.2: what the player reads on the river is what the showdown counts."""
    hole, board = deal
    read, counted = best_hand(hole, board).value, evaluate_omaha(hole, board)
    assert read.strength == counted.strength and read.category == counted.category
    assert describe_five(read.cards).text == describe_five(counted.cards).text


@given(st.permutations(range(52)).map(lambda cards: (cards[:4], cards[4:7])))
def test_on_the_flop_the_best_hand_beats_every_other_two_plus_three(deal):
    hole, board = deal
    found = best_hand(hole, board).value
    every = [
        best_hand(pair + other, board).value.strength
        for pair in combinations(hole, 2)
        for other in [tuple(c for c in hole if c not in pair)]
    ]
    assert found.strength == max(every)


@pytest.mark.parametrize(
    ("hole", "board"),
    [
        ("Kh Kd 7c", "Ks 7d 7h"),
        ("Kh Kd 7c 2s", "Ks 7d"),
        ("Kh Kd 7c 2s", "Ks 7d 7h 2c 3c 4c"),
        ("Kh Kd 7c 2s", "Kh 7d 7h"),
    ],
)
def test_a_bad_deal_is_refused(hole, board):
    with pytest.raises(ValueError):
        best_hand(parse_cards(hole), parse_cards(board))


def test_the_words_are_a_template_and_rank_names_for_the_catalogue():
    described = describe_five(parse_cards("Kh Kd Ks 7d 7h"))
    assert described.template == hand_words.FULL_HOUSE
    assert described.params == {"trips": "kings", "pair": "sevens"}
    assert format_cards(parse_cards("Kh Kd Ks 7d 7h"))[0] == "Kh"


def test_the_module_examples_run():
    result = run_examples(hand_words)
    assert result.attempted >= 3 and result.failed == 0
