"""The deck (RULES 1.2) and its fairness commitment."""

import hashlib
import random
import secrets
from pathlib import Path

import pytest

from tables.engine import deck as deck_module
from tables.engine.cards import parse_cards
from tables.engine.deck import (
    FULL_DECK,
    deck_commitment,
    new_salt,
    shuffled_deck,
    validate_deck,
    verify_commitment,
)


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


def test_new_salt_is_128_random_bits_in_hex():
    salts = {new_salt() for _ in range(10)}
    assert len(salts) == 10
    for salt in salts:
        assert len(salt) == 32
        int(salt, 16)


def test_commitment_is_sha256_of_the_documented_text():
    deck = shuffled_deck(ReversingRng())  # As Ah Ad Ac Ks ... 2c
    text = " ".join(rank + suit for rank in "AKQJT98765432" for suit in "shdc") + ":salt"
    assert text.startswith("As Ah Ad Ac Ks Kh") and text.endswith("2d 2c:salt")
    assert deck_commitment(deck, "salt") == hashlib.sha256(text.encode()).hexdigest()


def test_commitment_verifies_for_the_same_deck_and_salt():
    deck, salt = shuffled_deck(), new_salt()
    commitment = deck_commitment(deck, salt)
    assert len(commitment) == 64
    assert verify_commitment(deck, salt, commitment)
    assert verify_commitment(deck, salt, commitment.upper())


def test_commitment_detects_a_tampered_deck_salt_or_digest():
    deck, salt = shuffled_deck(), new_salt()
    commitment = deck_commitment(deck, salt)
    swapped = (deck[1], deck[0], *deck[2:])
    assert not verify_commitment(swapped, salt, commitment)
    assert not verify_commitment(deck, new_salt(), commitment)
    flipped_digit = "1" if commitment[-1] == "0" else "0"
    assert not verify_commitment(deck, salt, commitment[:-1] + flipped_digit)
    assert not verify_commitment(deck[:51], salt, commitment)


def test_commitment_depends_on_every_position():
    rng = random.Random(5)  # test-only: picks which positions to swap
    deck, salt = shuffled_deck(), "fixed"
    commitment = deck_commitment(deck, salt)
    for _ in range(50):
        i, j = rng.sample(range(52), 2)
        tampered = list(deck)
        tampered[i], tampered[j] = tampered[j], tampered[i]
        assert deck_commitment(tampered, salt) != commitment


def test_commitment_refuses_an_invalid_deck():
    with pytest.raises(ValueError):
        deck_commitment(parse_cards("As Ks"), "salt")
