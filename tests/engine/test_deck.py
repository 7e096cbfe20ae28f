"""The deck (RULES 1.2); its fairness commitments are tested in test_fairness.py."""

import secrets
from pathlib import Path

import pytest

from tables.engine import deck as deck_module
from tables.engine.deck import FULL_DECK, shuffled_deck, validate_deck


class RecordingSystemRandom(secrets.SystemRandom):
    """A real CSPRNG that records that it shuffled."""

    def __init__(self):
        super().__init__()
        self.shuffles = 0

    def shuffle(self, x):
        self.shuffles += 1
        super().shuffle(x)


class ReversingRng(secrets.SystemRandom):
    """Deterministic stand-in: proves the deck order comes from the rng."""

    def shuffle(self, x):
        x.reverse()


def test_rule_1_2_full_deck_is_52_distinct_cards():
    assert len(FULL_DECK) == 52
    assert set(FULL_DECK) == set(range(52))


def test_rule_1_2_shuffled_deck_holds_each_card_once():
    deck = shuffled_deck()
    assert isinstance(deck, tuple)
    validate_deck(deck)
    assert sorted(deck) == list(FULL_DECK)


def test_rule_1_2_each_hand_gets_a_new_deck_order():
    """RULES 1.2: a new deck per hand. 20 equal orders out of 52! is impossible in practice."""
    orders = {shuffled_deck() for _ in range(20)}
    assert len(orders) == 20


def test_rule_1_2_injected_rng_does_the_shuffle():
    rng = RecordingSystemRandom()
    shuffled_deck(rng)
    assert rng.shuffles == 1
    assert shuffled_deck(ReversingRng()) == tuple(reversed(FULL_DECK))


def test_rule_1_2_default_rng_is_the_os_csprng(monkeypatch):
    """RULES 1.2: without an injected rng, a fresh secrets.SystemRandom shuffles."""
    created = []

    class SpySystemRandom(RecordingSystemRandom):
        def __init__(self):
            super().__init__()
            created.append(self)

    monkeypatch.setattr(deck_module.secrets, "SystemRandom", SpySystemRandom)
    shuffled_deck()
    shuffled_deck()
    assert len(created) == 2
    assert [rng.shuffles for rng in created] == [1, 1]


def test_rule_1_2_deck_module_never_uses_the_random_module():
    assert not hasattr(deck_module, "random")
    assert "import random" not in Path(deck_module.__file__).read_text()


@pytest.mark.parametrize(
    "bad_deck",
    [
        FULL_DECK[:51],
        (*FULL_DECK, 0),
        (*FULL_DECK[:51], 0),
        (*FULL_DECK[:51], 52),
    ],
    ids=["51 cards", "53 cards", "duplicate", "not a card"],
)
def test_validate_deck_rejects_anything_but_52_distinct_cards(bad_deck):
    with pytest.raises(ValueError):
        validate_deck(bad_deck)
