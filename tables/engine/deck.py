"""The deck: a fresh CSPRNG shuffle per hand and a commitment to it (RULES 1.2).

Provable fairness: before a hand starts the room publishes
``deck_commitment(deck, salt)``; after the hand it reveals the deck order and
the salt, and anyone can recompute the digest with ``verify_commitment``. The
random salt stops players from guessing the deck by hashing candidate orders.
"""

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from .cards import CARD_COUNT, format_cards

FULL_DECK: tuple[int, ...] = tuple(range(CARD_COUNT))


def shuffled_deck(rng: secrets.SystemRandom | None = None) -> tuple[int, ...]:
    """Return a new shuffled 52-card deck, the first card dealt first.

    By default a new ``secrets.SystemRandom`` (the OS CSPRNG) shuffles every
    deck; ``rng`` exists so tests can inject a source. Never pass ``random``:
    RULES 1.2 requires a cryptographically secure generator.
    """
    source = secrets.SystemRandom() if rng is None else rng
    cards = list(FULL_DECK)
    source.shuffle(cards)
    return tuple(cards)


def validate_deck(deck: Sequence[int]) -> None:
    """Raise ``ValueError`` unless ``deck`` holds each of the 52 cards once."""
    if len(deck) != CARD_COUNT or set(deck) != set(FULL_DECK):
        raise ValueError(f"A deck must hold each of the {CARD_COUNT} cards exactly once.")


def new_salt() -> str:
    """Return a fresh random salt: 32 hex characters (128 bits)."""
    return secrets.token_hex(16)


def committed_text(deck: Sequence[int], salt: str) -> str:
    """The text a deck commitment hashes: the cards in dealing order separated
    by single spaces, then a colon, then the salt::

        "Kd 7h 2c ... As:3f9a0c..."

    so a player can check it with any SHA-256 tool.
    """
    validate_deck(deck)
    return " ".join(format_cards(deck)) + ":" + salt


def deck_commitment(deck: Sequence[int], salt: str) -> str:
    """Return the SHA-256 hex digest (of ``committed_text``, UTF-8) committing to ``deck`` with ``salt``."""
    return hashlib.sha256(committed_text(deck, salt).encode("utf-8")).hexdigest()


def verify_commitment(deck: Sequence[int], salt: str, commitment: str) -> bool:
    """Return whether ``commitment`` was made for exactly this deck and salt."""
    try:
        expected = deck_commitment(deck, salt)
    except ValueError:
        return False
    # Constant-time comparison: a habit for secrets, cheap here.
    return hmac.compare_digest(expected, commitment.lower())
