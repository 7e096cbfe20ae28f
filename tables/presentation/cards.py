"""Cards as the page shows them: rank and suit symbol, a colour class, a spoken name (in the
active language)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import gettext, gettext_noop

from config.speaking import language as active_language

_RANK_NAMES = {
    "2": gettext_noop("Two"), "3": gettext_noop("Three"), "4": gettext_noop("Four"), "5": gettext_noop("Five"),
    "6": gettext_noop("Six"), "7": gettext_noop("Seven"), "8": gettext_noop("Eight"), "9": gettext_noop("Nine"),
    "T": gettext_noop("Ten"), "J": gettext_noop("Jack"), "Q": gettext_noop("Queen"), "K": gettext_noop("King"),
    "A": gettext_noop("Ace"),
}  # fmt: skip
_SUITS = {
    "c": ("♣", gettext_noop("clubs")),
    "d": ("♦", gettext_noop("diamonds")),
    "h": ("♥", gettext_noop("hearts")),
    "s": ("♠", gettext_noop("spades")),
}


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
    return _card_view(active_language(), text, highlighted, in_best_hand)


# Every screen of every change draws its cards again: each card's view (its spoken name takes three
# translations) is made once per language, since a CardView is immutable.
@lru_cache(maxsize=52 * 4 * 4)
def _card_view(language: str, text: str, highlighted: bool, in_best_hand: bool) -> CardView:
    rank, suit = text[0], text[1]
    symbol, suit_name = _SUITS[suit]
    return CardView(
        text=text,
        rank="10" if rank == "T" else rank,
        symbol=symbol,
        suit=suit,
        name=gettext("%(rank)s of %(suit)s") % {"rank": gettext(_RANK_NAMES[rank]), "suit": gettext(suit_name)},
        highlighted=highlighted,
        in_best_hand=in_best_hand,
    )


def card_views(texts: Iterable[str], highlight: Iterable[str] = (), best: Iterable[str] = ()) -> list[CardView]:
    winners, best_five, language = set(highlight), set(best), active_language()  # found once, not per card
    return [_card_view(language, text, text in winners, text in best_five) for text in texts]
