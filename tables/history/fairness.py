"""The deck reveal that lets a player check a hand was dealt from the deck committed to.

Before a hand starts the room publishes ``deck_commitment``, the SHA-256 of
the committed text (``tables.engine.deck.deck_commitment``): the 52 cards in
dealing order separated by single spaces, a colon, the salt. Once the hand is
complete, and never before, the deck and the salt are revealed here.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine.cards import format_cards, parse_cards
from tables.engine.deck import committed_text, verify_commitment
from tables.models import Hand


@dataclass(frozen=True, slots=True)
class DeckReveal:
    """The revealed deck of a complete hand and how to check it.

    ``verified``: the server's own check of the commitment (``verify_commitment``).
    """

    deck: tuple[str, ...]
    salt: str
    commitment: str
    committed_text: str
    verified: bool

    @property
    def python_command(self) -> str:
        return f"python -c \"import hashlib; print(hashlib.sha256(b'{self.committed_text}').hexdigest())\""

    @property
    def shell_command(self) -> str:
        return f"printf '%s' '{self.committed_text}' | sha256sum"


def deck_reveal(hand: Hand) -> DeckReveal | None:
    """The reveal of a complete hand; None while the hand runs (the deck is secret)."""
    if hand.state != Hand.State.COMPLETE:
        return None
    deck = parse_cards(hand.deck)
    cards = tuple(format_cards(deck))
    return DeckReveal(
        deck=cards,
        salt=hand.salt,
        commitment=hand.deck_commitment,
        # Only card texts, spaces, ':' and hex digits: safe inside the quotes of the commands above.
        committed_text=committed_text(deck, hand.salt),
        verified=verify_commitment(deck, hand.salt, hand.deck_commitment),
    )
