"""Playing cards as plain ints.

A card is an ``int`` from 0 to 51: ``rank_index * 4 + suit_index``, where
``rank_index`` 0..12 stands for 2..A and ``suit_index`` 0..3 for clubs,
diamonds, hearts, spades. This is the card id used by ``phevaluator``, so
cards go to the evaluator without conversion. Text form is rank then suit,
e.g. ``"Kd"`` (king of diamonds), ``"Th"`` (ten of hearts).
"""

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "cdhs"
CARD_COUNT = len(RANKS) * len(SUITS)


def parse_card(text: str) -> int:
    """Return the card for a two-character text such as ``"Kd"``.

    The rank and suit letters are accepted in either case (``"kD"`` is the
    king of diamonds). Anything else raises ``ValueError``.
    """
    if not isinstance(text, str) or len(text) != 2:
        raise ValueError(f"A card is a rank and a suit like 'Kd'; got {text!r}.")
    rank_index = RANKS.find(text[0].upper())
    suit_index = SUITS.find(text[1].lower())
    if rank_index < 0:
        raise ValueError(f"Unknown rank {text[0]!r} in {text!r}; ranks are {RANKS}.")
    if suit_index < 0:
        raise ValueError(f"Unknown suit {text[1]!r} in {text!r}; suits are {SUITS}.")
    return rank_index * len(SUITS) + suit_index


def format_card(card: int) -> str:
    """Return the text of a card, e.g. ``format_card(45) == "Kd"``."""
    # bool is an int subclass, but True is never a deliberate card.
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < CARD_COUNT:
        raise ValueError(f"A card is an int from 0 to {CARD_COUNT - 1}; got {card!r}.")
    rank_index, suit_index = divmod(card, len(SUITS))
    return RANKS[rank_index] + SUITS[suit_index]


def parse_cards(cards: str | Iterable[str]) -> tuple[int, ...]:
    """Return the cards named by a text or by an iterable of card texts.

    A text may separate its cards with spaces or not: ``"Kd Th"`` and
    ``"KdTh"`` both give the king of diamonds and the ten of hearts.
    Duplicates are kept: whether they are allowed is the caller's rule.
    """
    if isinstance(cards, str):
        packed = "".join(cards.split())
        if len(packed) % 2:
            raise ValueError(f"Cards are two characters each; cannot split {cards!r}.")
        return tuple(parse_card(packed[i : i + 2]) for i in range(0, len(packed), 2))
    return tuple(parse_card(text) for text in cards)


def format_cards(cards: Iterable[int]) -> list[str]:
    """Return the text of each card, in order."""
    return [format_card(card) for card in cards]
