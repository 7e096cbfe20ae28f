"""Cards as the page shows them: rank and suit symbol, a colour class, a spoken name."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

_RANK_NAMES = {
    "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight",
    "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}  # fmt: skip
_SUITS = {"c": ("♣", "clubs"), "d": ("♦", "diamonds"), "h": ("♥", "hearts"), "s": ("♠", "spades")}


@dataclass(frozen=True)
class CardView:
    text: str  # "Kd", as the engine writes it
    rank: str  # "K"; "10" for a ten, as printed on a card
    symbol: str  # "♦"
    suit: str  # "d": the colour class (two or four colours) keys on it
    name: str  # "King of diamonds", for screen readers
    highlighted: bool = False  # one of the five cards that won
    in_best_hand: bool = False  # one of the five cards of the viewer's own best hand so far (theirs only)


def card_view(text: str, highlighted: bool = False, in_best_hand: bool = False) -> CardView:
    rank, suit = text[0], text[1]
    symbol, suit_name = _SUITS[suit]
    return CardView(
        text=text,
        rank="10" if rank == "T" else rank,
        symbol=symbol,
        suit=suit,
        name=f"{_RANK_NAMES[rank]} of {suit_name}",
        highlighted=highlighted,
        in_best_hand=in_best_hand,
    )


def card_views(texts: Iterable[str], highlight: Iterable[str] = (), best: Iterable[str] = ()) -> list[CardView]:
    winners, best_five = set(highlight), set(best)
    return [card_view(text, text in winners, text in best_five) for text in texts]
