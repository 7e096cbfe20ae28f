"""What happened in a hand, as plain JSON-safe dicts ``{"type": ..., ...}``.

Every event carries ``type`` (one of the constants below). Cards are text
("Kd"); seats are seat numbers; amounts are chips. Only
``hole_cards_dealt`` is private: ``projection.visible_events`` hides it from
everyone but its seat.

``hand_started``        variant, button, small_blind_seat, big_blind_seat,
                        small_blind, big_blind, big_bet, big_blind_ante,
                        seats: [{seat, name, stack}]
``blind_posted``        seat, blind ("small_blind" | "big_blind" |
                        "extra_big_blind" | "big_blind_ante"), amount, all_in
``hole_cards_dealt``    seat, cards (4, in the order dealt)           PRIVATE
``player_acted``        seat, street, kind ("fold" | "check" | "call" |
                        "bet" | "raise"), amount (chips put in now), total
                        (the seat's bet in this round), all_in
``timed_out``           seat, street, became ("fold" | "protected_all_in")
``uncalled_bet_returned`` seat, amount
``street_dealt``        street ("flop" | "turn" | "river"), cards (new), board
``hands_turned_up``     hands: [{seat, cards}] (all-in, no more betting)
``hand_shown``          seat, cards, category, best_five
``hand_mucked``         seat
``pot_awarded``         pot_index, amount, eligible, winners: [{seat, amount}]
``hand_ended``          stacks: [{seat, stack}]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import CARD_COUNT, format_cards
from .config import HandConfig

Event = dict[str, Any]

# Cards are formatted once here: events format many cards per hand.
CARD_TEXT = tuple(format_cards(range(CARD_COUNT)))


def card_texts(cards: Iterable[int]) -> list[str]:
    """The text of each card ("Kd"), in order."""
    return [CARD_TEXT[card] for card in cards]


HAND_STARTED = "hand_started"
BLIND_POSTED = "blind_posted"
HOLE_CARDS_DEALT = "hole_cards_dealt"
PLAYER_ACTED = "player_acted"
TIMED_OUT = "timed_out"
UNCALLED_BET_RETURNED = "uncalled_bet_returned"
STREET_DEALT = "street_dealt"
HANDS_TURNED_UP = "hands_turned_up"
HAND_SHOWN = "hand_shown"
HAND_MUCKED = "hand_mucked"
POT_AWARDED = "pot_awarded"
HAND_ENDED = "hand_ended"

EVENT_TYPES = frozenset(
    {
        HAND_STARTED,
        BLIND_POSTED,
        HOLE_CARDS_DEALT,
        PLAYER_ACTED,
        TIMED_OUT,
        UNCALLED_BET_RETURNED,
        STREET_DEALT,
        HANDS_TURNED_UP,
        HAND_SHOWN,
        HAND_MUCKED,
        POT_AWARDED,
        HAND_ENDED,
    }
)
PRIVATE_EVENT_TYPES = frozenset({HOLE_CARDS_DEALT})

SMALL_BLIND = "small_blind"
BIG_BLIND = "big_blind"
EXTRA_BIG_BLIND = "extra_big_blind"
BIG_BLIND_ANTE = "big_blind_ante"

BECAME_FOLD = "fold"
BECAME_PROTECTED_ALL_IN = "protected_all_in"


def hand_started(config: HandConfig) -> Event:
    return {
        "type": HAND_STARTED,
        "variant": config.variant.value,
        "button": config.button,
        "small_blind_seat": config.small_blind_seat,
        "big_blind_seat": config.big_blind_seat,
        "small_blind": config.small_blind,
        "big_blind": config.big_blind,
        "big_bet": config.big_bet,
        "big_blind_ante": config.big_blind_ante,
        "seats": [
            {"seat": setup.seat, "name": setup.name, "stack": setup.stack}
            for setup in sorted(config.seats, key=lambda setup: setup.seat)
        ],
    }


def blind_posted(seat: int, blind: str, amount: int, all_in: bool) -> Event:
    return {"type": BLIND_POSTED, "seat": seat, "blind": blind, "amount": amount, "all_in": all_in}


def hole_cards_dealt(seat: int, cards: list[str]) -> Event:
    return {"type": HOLE_CARDS_DEALT, "seat": seat, "cards": cards}


def player_acted(seat: int, street: str, kind: str, amount: int, total: int, all_in: bool) -> Event:
    return {
        "type": PLAYER_ACTED,
        "seat": seat,
        "street": street,
        "kind": kind,
        "amount": amount,
        "total": total,
        "all_in": all_in,
    }


def timed_out(seat: int, street: str, became: str) -> Event:
    return {"type": TIMED_OUT, "seat": seat, "street": street, "became": became}


def uncalled_bet_returned(seat: int, amount: int) -> Event:
    return {"type": UNCALLED_BET_RETURNED, "seat": seat, "amount": amount}


def street_dealt(street: str, cards: list[str], board: list[str]) -> Event:
    return {"type": STREET_DEALT, "street": street, "cards": cards, "board": board}


def hands_turned_up(hands: list[dict[str, Any]]) -> Event:
    return {"type": HANDS_TURNED_UP, "hands": hands}


def hand_shown(seat: int, cards: list[str], category: str, best_five: list[str]) -> Event:
    return {
        "type": HAND_SHOWN,
        "seat": seat,
        "cards": cards,
        "category": category,
        "best_five": best_five,
    }


def hand_mucked(seat: int) -> Event:
    return {"type": HAND_MUCKED, "seat": seat}


def pot_awarded(pot_index: int, amount: int, eligible: list[int], winners: list[tuple[int, int]]) -> Event:
    return {
        "type": POT_AWARDED,
        "pot_index": pot_index,
        "amount": amount,
        "eligible": eligible,
        "winners": [{"seat": seat, "amount": chips} for seat, chips in winners],
    }


def hand_ended(stacks: list[tuple[int, int]]) -> Event:
    return {
        "type": HAND_ENDED,
        "stacks": [{"seat": seat, "stack": stack} for seat, stack in stacks],
    }
