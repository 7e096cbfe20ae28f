"""The deck (RULES 1.2): the 52 cards, a CSPRNG shuffle, and the check that a deck is whole.

The room deals the deck its fairness scheme derives from the server's seed and the players'
contributions (``fairness.deal``); ``shuffled_deck`` serves engine tests and benchmarks.
"""

import secrets
from collections.abc import Sequence

from .cards import CARD_COUNT

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
