"""Omaha High evaluation: RULES 5.2 (two hole + three board) and 5.3 (ranks, ties)."""

import random
from itertools import combinations

import phevaluator
import pokerkit
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engine.cards import format_card, format_cards, parse_cards
from tables.engine.evaluator import (
    HAND_CATEGORIES,
    HandValue,
    category_of_rank,
    evaluate_omaha,
    omaha_strength,
)


def best(hole: str, board: str) -> HandValue:
    return evaluate_omaha(parse_cards(hole), parse_cards(board))


def strength(hole: str, board: str) -> int:
    return omaha_strength(parse_cards(hole), parse_cards(board))


deals = st.permutations(range(52)).map(lambda cards: (cards[:4], cards[4:9]))


# --- RULES 5.2: exactly two hole cards and three board cards -----------------


def test_rule_5_2_seed_example_kings_full_of_sevens():
    """RULES 5.2 seed (004): K♦7♥ + K♣K♥7♠ beats sevens full of kings."""
    hand = best("Kd 7h 7c 2s", "Kc Kh 7s 3d 9s")
    assert hand.category == "Full house"
    assert hand.cards == parse_cards("Kd 7h Kc Kh 7s")
    sevens_full_of_kings = strength("7h 7c 2s 4d", "Kc Kh 7s 3d 9s")
    assert best("7h 7c 2s 4d", "Kc Kh 7s 3d 9s").category == "Full house"
    assert hand.strength > sevens_full_of_kings


def test_rule_5_2_four_hearts_on_board_plus_one_in_hand_is_no_flush():
    hand = best("Ah Kd 3c 8s", "2h 5h 9h Jh Kc")
    assert hand.category == "One pair"  # kings: Kd with Kc
    assert best("Ah 3h Kd 8s", "2h 5h 9h Jh Kc").category == "Flush"


def test_rule_5_2_one_hole_card_with_four_board_cards_is_not_a_royal_flush():
    assert best("Ts 3c 4c 5h", "As Ks Qs Js 2d").category == "High card"


def test_rule_5_2_three_or_four_hole_cards_never_play():
    # A-K-Q-J of hearts in hand with Th on board: no flush, no straight.
    assert best("Ah Kh Qh Jh", "Th 2c 3d 4s 9c").category == "High card"
    # Four clubs in hand, one on board: no flush.
    assert best("6c 7c 8c 9c", "2c 3d Jd Kh As").category == "High card"


@given(deals)
def test_rule_5_2_best_hand_is_two_hole_cards_plus_three_board_cards(deal):
    hole, board = deal
    hand = evaluate_omaha(hole, board)
    assert len(hand.cards) == 5
    assert set(hand.cards[:2]) <= set(hole)
    assert set(hand.cards[2:]) <= set(board)
    assert hand.category in HAND_CATEGORIES
    assert 1 <= hand.strength <= 7462


@given(deals)
def test_rule_5_2_strength_is_the_best_of_the_60_combinations(deal):
    """Brute force with phevaluator's public 5-card evaluator (lower rank is better)."""
    hole, board = deal
    best_rank = min(
        phevaluator.evaluate_cards(*pair, *triple)
        for pair in combinations(hole, 2)
        for triple in combinations(board, 3)
    )
    hand = evaluate_omaha(hole, board)
    assert hand.strength == 7463 - best_rank
    assert omaha_strength(hole, board) == hand.strength
    assert phevaluator.evaluate_omaha_cards(*board, *hole) == best_rank
    assert 7463 - phevaluator.evaluate_cards(*hand.cards) == hand.strength


@given(deals)
def test_evaluate_omaha_is_deterministic_and_ignores_input_container(deal):
    hole, board = deal
    assert evaluate_omaha(list(hole), list(board)) == evaluate_omaha(hole, board)


def test_equal_combinations_resolve_to_the_first_in_order():
    # A-9 with either nine makes the same aces with J-9-7: the first pair wins.
    board = "Ah 2c 5h 7s Jd"
    assert best("As 9c 9d 3h", board).cards[:2] == parse_cards("As 9c")
    assert best("As 9d 9c 3h", board).cards[:2] == parse_cards("As 9d")
    assert best("As 9c 9d 3h", board).strength == best("As 9d 9c 3h", board).strength


# --- RULES 5.3: ranking, kickers, suits never break ties ---------------------


@pytest.mark.parametrize(
    ("hole", "board", "category"),
    [
        ("Ah Th 2c 3d", "Kh Qh Jh 4s 5c", "Straight flush"),
        ("9c 9d 2h 3h", "9h 9s 2c 7d Jc", "Four of a kind"),
        ("Kd 7h 7c 2s", "Kc Kh 7s 3d 9s", "Full house"),
        ("Ah 3h 4c 7d", "5h 9h Jh 2c 2d", "Flush"),
        ("5c 6d Kh Kd", "7h 8s 9c 2d 2h", "Straight"),
        ("9c 9d 3h 4s", "9h 2s 5c Kd Jh", "Three of a kind"),
        ("Ac Kd 3h 4s", "Ah Ks 2c 7d 9h", "Two pair"),
        ("Ac 3d 4h 6s", "Ah 7s 9c Jd 2h", "One pair"),
        ("Ac 3d 4h 6s", "Kh 7s 9c Jd 2h", "High card"),
    ],
)
def test_rule_5_3_standard_hand_categories(hole, board, category):
    assert best(hole, board).category == category


@pytest.mark.parametrize(
    ("five_cards", "category"),
    [
        ("Ah Kh Qh Jh Th", "Straight flush"),
        ("5h 4h 3h 2h Ah", "Straight flush"),
        ("As Ah Ad Ac Kd", "Four of a kind"),
        ("2s 2h 2d 2c 3d", "Four of a kind"),
        ("As Ah Ad Kc Kd", "Full house"),
        ("2s 2h 2d 3c 3d", "Full house"),
        ("Ah Kh Qh Jh 9h", "Flush"),
        ("7h 5h 4h 3h 2h", "Flush"),
        ("Ah Kc Qh Jh Th", "Straight"),
        ("5h 4c 3h 2h Ah", "Straight"),
        ("As Ah Ad Kc Qd", "Three of a kind"),
        ("2s 2h 2d 4c 3d", "Three of a kind"),
        ("As Ah Kd Kc Qd", "Two pair"),
        ("3s 3h 2d 2c 4d", "Two pair"),
        ("As Ah Kd Qc Jd", "One pair"),
        ("2s 2h 5d 4c 3d", "One pair"),
        ("As Kh Qd Jc 9d", "High card"),
        ("7s 5h 4d 3c 2d", "High card"),
    ],
)
def test_rule_5_3_best_and_worst_hand_of_each_category(five_cards, category):
    """The category boundaries match phevaluator's rank layout exactly."""
    rank = phevaluator.evaluate_cards(*parse_cards(five_cards))
    assert category_of_rank(rank) == category


def test_rule_5_3_categories_are_ordered_best_first():
    hands = [
        best("Ah Th 2c 3d", "Kh Qh Jh 4s 5c"),
        best("9c 9d 2h 3h", "9h 9s 2c 7d Jc"),
        best("Kd 7h 7c 2s", "Kc Kh 7s 3d 9s"),
        best("Ah 3h 4c 7d", "5h 9h Jh 2c 2d"),
        best("5c 6d Kh Kd", "7h 8s 9c 2d 2h"),
        best("9c 9d 3h 4s", "9h 2s 5c Kd Jh"),
        best("Ac Kd 3h 4s", "Ah Ks 2c 7d 9h"),
        best("Ac 3d 4h 6s", "Ah 7s 9c Jd 2h"),
        best("Ac 3d 4h 6s", "Kh 7s 9c Jd 2h"),
    ]
    assert [hand.category for hand in hands] == list(HAND_CATEGORIES)
    strengths = [hand.strength for hand in hands]
    assert strengths == sorted(strengths, reverse=True)


def test_royal_flush_has_the_top_strength():
    assert best("Ah Kh 2c 3d", "Qh Jh Th 4s 5c").strength == 7462


def test_rule_5_3_wheel_is_the_lowest_straight():
    wheel = best("Ac 2d Kh Kd", "3s 4h 5c 9d Jc")
    six_high = best("2c 6d Kh Kd", "3s 4h 5c 9d Jc")
    trips = best("9c 9h Kh Kd", "3s 4h 5c 9d Jc")
    assert wheel.category == six_high.category == "Straight"
    assert trips.strength < wheel.strength < six_high.strength


def test_rule_5_3_straights_do_not_wrap_around_the_ace():
    assert best("Kc Ad 8h 8d", "2s 3h 4c 9d Jc").category == "One pair"


def test_rule_5_3_kicker_breaks_a_tie_between_equal_pairs():
    """RULES 5.3: kings with a queen beat kings with a jack (K K Q J 9 vs K K J T 9)."""
    board = "Kc 2d 9h Js 5c"
    assert strength("Ks Qd 3c 4c", board) > strength("Kh Td 3d 4d", board)


def test_rule_5_3_equal_ranks_tie_whatever_the_suits():
    board = "2c 7d 9h Js Kc"
    assert strength("As Ad 3c 4d", board) == strength("Ah Ac 3h 4s", board)


def test_rule_5_3_flushes_of_different_suits_with_equal_ranks_tie():
    spade_flush = strength("As 4s 2c 3c", "Ks 8s 6s 2h 3d")
    heart_flush = strength("Ah 4h 2c 3c", "Kh 8h 6h 2s 3s")
    assert spade_flush == heart_flush


SUIT_PERMUTATIONS = st.permutations(range(4))


@given(deals, SUIT_PERMUTATIONS)
def test_rule_5_3_renaming_suits_never_changes_strength(deal, suits):
    hole, board = deal

    def rename(cards):
        return tuple(card - card % 4 + suits[card % 4] for card in cards)

    assert omaha_strength(rename(hole), rename(board)) == omaha_strength(hole, board)


# --- Input validation --------------------------------------------------------


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        ("Ah Kh Qh", "2c 3d 4s 5h 9c", "4 hole cards; got 3"),
        ("Ah Kh Qh Jh Th", "2c 3d 4s 5h 9c", "4 hole cards; got 5"),
        ("Ah Kh Qh Jh", "2c 3d 4s", "5 board cards; got 3"),
        ("Ah Kh Qh Jh", "2c 3d 4s 5h", "5 board cards; got 4"),
        ("Ah Ah Qh Jh", "2c 3d 4s 5h 9c", "Duplicate"),
        ("Ah Kh Qh Jh", "2c 3d 4s 5h Ah", "Duplicate"),
    ],
)
def test_rejects_wrong_counts_and_duplicates(hole, board, message):
    for evaluate in (omaha_strength, evaluate_omaha):
        with pytest.raises(ValueError, match=message):
            evaluate(parse_cards(hole), parse_cards(board))


@pytest.mark.parametrize("bad_card", [52, -1, "Ah", None])
def test_rejects_values_that_are_not_cards(bad_card):
    for evaluate in (omaha_strength, evaluate_omaha):
        with pytest.raises(ValueError, match="ints from 0 to 51"):
            evaluate((bad_card, 1, 2, 3), (4, 5, 6, 7, 8))


# --- Differential test against PokerKit --------------------------------------

POKERKIT_CARDS = [next(pokerkit.Card.parse(format_card(card))) for card in range(52)]
POKERKIT_LABELS = {label.value for label in pokerkit.Label}
BOARDS = 2_500
HANDS_PER_BOARD = 4  # 6 head-to-head deals per board: 15,000 deals in all


def pokerkit_hand(hole, board):
    return pokerkit.OmahaHoldemHand.from_game(
        [POKERKIT_CARDS[card] for card in hole], [POKERKIT_CARDS[card] for card in board]
    )


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def test_rule_5_2_and_5_3_agree_with_pokerkit_on_15000_random_deals():
    """Every pair of hands on a board must win, lose or tie exactly as PokerKit says.

    PokerKit evaluates about a thousand hands a second, so each of the
    2,500 random boards gets four hands and all six pairs are compared.
    """
    assert set(HAND_CATEGORIES) == POKERKIT_LABELS
    rng = random.Random(20240611)  # test-only: reproducible deals
    compared = 0
    for _ in range(BOARDS):
        cards = rng.sample(range(52), 5 + 4 * HANDS_PER_BOARD)
        board = cards[:5]
        holes = [cards[5 + 4 * i : 9 + 4 * i] for i in range(HANDS_PER_BOARD)]
        ours = [evaluate_omaha(hole, board) for hole in holes]
        theirs = [pokerkit_hand(hole, board) for hole in holes]
        for our_hand, their_hand, hole in zip(ours, theirs, holes, strict=True):
            assert our_hand.category == their_hand.entry.label.value, (
                format_cards(hole),
                format_cards(board),
            )
        for a, b in combinations(range(HANDS_PER_BOARD), 2):
            their_order = (theirs[a] > theirs[b]) - (theirs[a] < theirs[b])
            our_order = sign(ours[a].strength - ours[b].strength)
            assert our_order == their_order, (
                format_cards(holes[a]),
                format_cards(holes[b]),
                format_cards(board),
            )
            compared += 1
    assert compared == 15_000
