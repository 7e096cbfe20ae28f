"""Card text <-> int conversions (RULES 1.2: one standard 52-card deck)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from phevaluator.card import Card

from tables.engine.cards import (
    CARD_COUNT,
    RANKS,
    SUITS,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)


def test_rule_1_2_fifty_two_cards_thirteen_ranks_four_suits():
    assert (RANKS, SUITS, CARD_COUNT) == ("23456789TJQKA", "cdhs", 52)
    assert len({format_card(card) for card in range(CARD_COUNT)}) == 52


def test_card_ids_are_rank_times_four_plus_suit():
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("Kd") == 11 * 4 + 1
    assert parse_card("As") == 51


def test_card_ids_match_phevaluator_for_every_card():
    """Our ints go to phevaluator unconverted, so both must agree on all 52."""
    for card in range(CARD_COUNT):
        assert Card(format_card(card)).id_ == card


@given(st.integers(min_value=0, max_value=CARD_COUNT - 1))
def test_format_then_parse_is_identity(card):
    assert parse_card(format_card(card)) == card


def test_parse_card_accepts_either_letter_case():
    assert parse_card("kD") == parse_card("Kd")
    assert parse_card("th") == parse_card("Th")


@pytest.mark.parametrize("text", ["", "K", "Kdd", "1d", "Kx", "10h", " Kd", 45, None])
def test_parse_card_rejects_bad_text(text):
    with pytest.raises(ValueError):
        parse_card(text)


def test_parse_card_error_names_the_bad_part():
    with pytest.raises(ValueError, match="suit 'x'"):
        parse_card("Kx")
    with pytest.raises(ValueError, match="rank '1'"):
        parse_card("1d")


@pytest.mark.parametrize("card", [-1, 52, 3.0, "Kd", True])
def test_format_card_rejects_non_cards(card):
    with pytest.raises(ValueError):
        format_card(card)


def test_parse_cards_with_or_without_spaces_or_as_a_list():
    expected = (parse_card("Kd"), parse_card("Th"), parse_card("2c"))
    assert parse_cards("Kd Th 2c") == expected
    assert parse_cards("KdTh2c") == expected
    assert parse_cards(" Kd  Th\n2c ") == expected
    assert parse_cards(["Kd", "Th", "2c"]) == expected
    assert parse_cards(iter(["Kd", "Th", "2c"])) == expected
    assert parse_cards("") == ()


def test_parse_cards_keeps_duplicates_for_the_caller_to_judge():
    assert parse_cards("KdKd") == (parse_card("Kd"), parse_card("Kd"))


@pytest.mark.parametrize("text", ["KdT", "Kd Th 2", "Kd Xh"])
def test_parse_cards_rejects_bad_text(text):
    with pytest.raises(ValueError):
        parse_cards(text)


def test_format_cards_keeps_order():
    assert format_cards(parse_cards("As 2c Th")) == ["As", "2c", "Th"]
