"""The PokerStars text's times, hand numbers and shown hands, in the words trackers read."""

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine.cards import RANKS, format_cards, parse_cards
from tables.engine.evaluator import evaluate_omaha
from tables.history.hand_names import RANK_NAMES, RANK_PLURALS, pokerstars_hand_name
from tables.history.numbering import exported_hand_number, installation_number
from tables.history.pokerstars import pokerstars_time
from tables.models import Installation

# --- times: the room's UTC, then Eastern time as PokerStars writes it ---------------------------


@pytest.mark.parametrize(
    ("moment", "written"),
    [
        (datetime(2010, 7, 3, 12, 46, 30, tzinfo=UTC), "2010/07/03 12:46:30 UTC [2010/07/03 8:46:30 ET]"),  # EDT, -4
        (datetime(2026, 1, 15, 3, 5, 9, tzinfo=UTC), "2026/01/15 03:05:09 UTC [2026/01/14 22:05:09 ET]"),  # EST, -5
        (datetime(2026, 3, 8, 7, 0, 0, tzinfo=UTC), "2026/03/08 07:00:00 UTC [2026/03/08 3:00:00 ET]"),  # summer begins
    ],
)
def test_times_are_written_in_utc_then_in_eastern_time_as_pokerstars_does(moment, written):
    assert pokerstars_time(moment) == written


# --- hand numbers: unique per installation, never changing -----------------------------------------


def test_two_installations_number_the_same_hand_differently_and_each_number_is_its_own():
    ours, theirs = exported_hand_number(123456, 7), exported_hand_number(654321, 7)
    assert ours != theirs
    assert {exported_hand_number(123456, hand_id) for hand_id in range(1, 1001)}.isdisjoint(
        exported_hand_number(654321, hand_id) for hand_id in range(1, 1001)
    )
    assert len(str(ours)) == len(str(exported_hand_number(999999, 10**12 - 1))) == 18
    assert exported_hand_number(999999, 10**12 - 1) < 2**63  # trackers keep hand numbers in 64 bits


@pytest.mark.parametrize("hand_id", [0, -1, 10**12])
def test_a_hand_id_that_does_not_fit_is_refused(hand_id):
    with pytest.raises(ValueError, match="A hand id from 1"):
        exported_hand_number(123456, hand_id)


@pytest.mark.django_db
def test_the_installation_number_is_drawn_once_and_kept():
    first = installation_number()
    assert 100_000 <= first < 1_000_000
    assert installation_number() == first == Installation.current().number
    assert Installation.objects.count() == 1


@pytest.mark.django_db
def test_after_a_database_reset_the_room_numbers_its_hands_anew(monkeypatch):
    """A new installation row (a reset database) draws a new number, so hand 1 is a new hand to a tracker."""
    draws = iter([111_111, 222_222])
    monkeypatch.setattr("tables.models.installation.secrets.randbelow", lambda n: next(draws) - 100_000)
    before = exported_hand_number(installation_number(), 1)
    Installation.objects.all().delete()
    assert exported_hand_number(installation_number(), 1) != before


# --- shown hands in PokerStars' words, from the engine's evaluator ----------------------------------


@pytest.mark.parametrize(
    ("hole", "board", "words"),
    [
        ("Kd 7h 7c 2s", "Kc Kh 7s 3d 9s", "a full house, Kings full of Sevens"),  # RULES 5.2's seed example
        ("Kd 5h Qc 2s", "Kc 5s 9h 3d 8c", "two pair, Kings and Fives"),
        ("Ah 2h Qc Js", "Kh 8h 3h 4d 9c", "a flush, Ace high"),
        ("Jc Qd 2s 2c", "Kh Th 9c 3d 3s", "a straight, Nine to King"),
        ("Ac 2d 7s 7c", "3h 4c 5d Kd Ks", "a straight, Ace to Five"),
        ("Ah Kd 3s 6c", "2c 7d 9h Tc Js", "high card Ace"),
        ("Qh Qd 3s 6c", "2c 7d 9h Tc Js", "a pair of Queens"),
        ("6h 6d 7s 8c", "6c 4d 9h Kc Js", "three of a kind, Sixes"),
        ("2h 2d 7s 8c", "2c 2s 9h Kc Js", "four of a kind, Deuces"),
        ("9h 8h 2s 2c", "Th Jh Qh 3d 3s", "a straight flush, Eight to Queen"),
        ("Ah Kh 2s 2c", "Th Jh Qh 3d 3s", "a Royal Flush"),
    ],
)
def test_a_shown_hand_is_named_in_pokerstars_words(hole, board, words):
    value = evaluate_omaha(parse_cards(hole), parse_cards(board))
    assert pokerstars_hand_name(value.category, format_cards(value.cards)) == words


def test_an_unknown_category_is_refused():
    with pytest.raises(ValueError, match="Unknown hand category"):
        pokerstars_hand_name("Five of a kind", ["Ah", "Ad", "Ac", "As", "Kd"])


@pytest.mark.django_db
def test_staff_read_the_installation_number_and_cannot_change_it(client, django_user_model):
    from django.urls import reverse

    number = installation_number()
    client.force_login(django_user_model.objects.create_superuser(username="boss", password="x"))
    assert str(number) in client.get(reverse("admin:tables_installation_changelist")).content.decode()
    assert client.get(reverse("admin:tables_installation_add")).status_code == 403


CATEGORY_WORDS = {
    "High card": "high card ",
    "One pair": "a pair of ",
    "Two pair": "two pair, ",
    "Three of a kind": "three of a kind, ",
    "Straight": "a straight, ",
    "Flush": "a flush, ",
    "Full house": "a full house, ",
    "Four of a kind": "four of a kind, ",
    "Straight flush": "a straight flush, ",
}


@given(st.permutations(range(52)))
@settings(max_examples=300, deadline=None)
def test_any_shown_hand_is_named_by_its_category_and_its_own_ranks(deck):
    """RULES 5.2, 5.3: whatever the deal, the words name the evaluator's category and only ranks of
    the five cards it counts, the more important rank first."""
    value = evaluate_omaha(deck[:4], deck[4:9])
    five = format_cards(value.cards)
    words = pokerstars_hand_name(value.category, five)
    assert words.startswith(CATEGORY_WORDS[value.category]) or words == "a Royal Flush"
    named = [word.rstrip(",") for word in words.split() if word.rstrip(",") in NAMED_RANKS]
    ranks = [NAMED_RANKS[word] for word in named]
    assert set(ranks) <= {card[0] for card in five}
    if value.category in ("Two pair", "Full house"):
        counts = [sum(card[0] == rank for card in five) for rank in ranks]
        assert counts == ([2, 2] if value.category == "Two pair" else [3, 2])
        assert value.category == "Full house" or RANKS.index(ranks[0]) > RANKS.index(ranks[1])


NAMED_RANKS = {
    **{name: rank for rank, name in RANK_NAMES.items()},
    **{name: rank for rank, name in RANK_PLURALS.items()},
}


@pytest.mark.django_db
def test_a_hand_keeps_its_number_in_every_export_as_more_hands_are_played(client, seat_three):
    from django.urls import reverse

    from tests.support.history import fold_to_the_big_blind, play_to_showdown

    table, players = seat_three
    hand = play_to_showdown(table, players)
    client.force_login(players["alice"])

    def header() -> str:
        return client.get(reverse("history:export_text", args=[hand.pk])).content.decode().splitlines()[0]

    before = header()
    fold_to_the_big_blind(table, players)
    assert header() == before
    assert before.startswith(f"PokerStars Hand #{exported_hand_number(installation_number(), hand.pk)}:  ")
