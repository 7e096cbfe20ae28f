"""What happened in a hand: one typed, JSON-safe dict per event.

Every event is a plain dict ``{"type": ..., ...}``, typed below by one
``TypedDict`` per ``EventType`` (``Event`` is any of them). Where a type
names an enum member (an ``EventType``, a ``Street``...), the event holds the
member's plain text (``text_of``), exactly as it reads back from the
database's JSON, so a fresh event and a stored one are alike. A ``StrEnum``
member compares and hashes equal to its text: compare with ``==`` (or look
up in a dict or set), never with ``is``. Cards are text ("Kd"); seats are
seat numbers; amounts are chips. Only ``hole_cards_dealt`` is private:
``projection.visible_events`` hides its ``cards`` (None) from everyone but
its seat.

``hand_started``        variant, button, small_blind_seat, big_blind_seat,
                        small_blind, big_blind, big_bet, big_blind_ante,
                        seats: [{seat, name, stack}]
``blind_posted``        seat, blind (``BlindKind``), amount, all_in
``hole_cards_dealt``    seat, cards (4, in the order dealt)           PRIVATE
``player_acted``        seat, street, kind (``ActionKind`` but TIMEOUT),
                        amount (chips put in now), total (the seat's bet in
                        this round), all_in
``timed_out``           seat, street, became (``Became``)
``uncalled_bet_returned`` seat, amount
``street_dealt``        street (flop, turn or river), cards (new), board
``hands_turned_up``     hands: [{seat, cards}] (all-in, no more betting)
``hand_shown``          seat, cards, category, best_five
``hand_mucked``         seat
``pot_awarded``         pot_index, amount, eligible, winners: [{seat, amount}]
``hand_ended``          stacks: [{seat, stack}]
``cards_shown``         seat, cards (after the hand: a winner nobody called chose to show)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Final, Literal, TypedDict, TypeVar

from .betting import ActionKind, PlayedKind, Street
from .cards import CARD_COUNT, format_cards
from .config import HandConfig, Variant


class EventType(StrEnum):
    """Every kind of event, in the order a hand may first produce them."""

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
    CARDS_SHOWN = "cards_shown"  # after hand_ended, by choice (``Hand.show_uncontested``)


class BlindKind(StrEnum):
    """What a ``blind_posted`` posts (RULES 2.3-2.8)."""

    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    EXTRA_BIG_BLIND = "extra_big_blind"  # an entrant's big blind out of position (RULES 2.7, 2.11)
    BIG_BLIND_ANTE = "big_blind_ante"  # dead money posted by the big blind after it (RULES 8.4)


class Became(StrEnum):
    """What a ``timed_out`` seat became (RULES 6.2)."""

    FOLD = "fold"  # nothing in the pot: folded
    PROTECTED_ALL_IN = "protected_all_in"  # all-in at what it had put in


DealtStreet = Literal[Street.FLOP, Street.TURN, Street.RIVER]

_Member = TypeVar("_Member", bound=StrEnum)


def text_of(member: _Member) -> _Member:
    """The member's plain text (``str``), typed as the member, which it equals: what an event holds."""
    # ``_value_`` is the plain str (``.value`` costs five times more); it equals the member, hence the type.
    return member._value_  # type: ignore[return-value]


def _texts(members: Iterable[_Member]) -> dict[_Member, _Member]:
    return {member: text_of(member) for member in members}


# Texts looked up rather than made on the hot path (an action's event), and the event
# types' texts under plain module names, for the constructors at the bottom.
_STREET_TEXTS: dict[Street, Street] = _texts(Street)
_PLAYED_TEXTS: dict[PlayedKind, PlayedKind] = _texts(
    (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)
)
_HAND_STARTED: Final[Literal[EventType.HAND_STARTED]] = text_of(EventType.HAND_STARTED)
_BLIND_POSTED: Final[Literal[EventType.BLIND_POSTED]] = text_of(EventType.BLIND_POSTED)
_HOLE_CARDS_DEALT: Final[Literal[EventType.HOLE_CARDS_DEALT]] = text_of(EventType.HOLE_CARDS_DEALT)
_PLAYER_ACTED: Final[Literal[EventType.PLAYER_ACTED]] = text_of(EventType.PLAYER_ACTED)
_TIMED_OUT: Final[Literal[EventType.TIMED_OUT]] = text_of(EventType.TIMED_OUT)
_UNCALLED_BET_RETURNED: Final[Literal[EventType.UNCALLED_BET_RETURNED]] = text_of(EventType.UNCALLED_BET_RETURNED)
_STREET_DEALT: Final[Literal[EventType.STREET_DEALT]] = text_of(EventType.STREET_DEALT)
_HANDS_TURNED_UP: Final[Literal[EventType.HANDS_TURNED_UP]] = text_of(EventType.HANDS_TURNED_UP)
_HAND_SHOWN: Final[Literal[EventType.HAND_SHOWN]] = text_of(EventType.HAND_SHOWN)
_HAND_MUCKED: Final[Literal[EventType.HAND_MUCKED]] = text_of(EventType.HAND_MUCKED)
_POT_AWARDED: Final[Literal[EventType.POT_AWARDED]] = text_of(EventType.POT_AWARDED)
_HAND_ENDED: Final[Literal[EventType.HAND_ENDED]] = text_of(EventType.HAND_ENDED)
_CARDS_SHOWN: Final[Literal[EventType.CARDS_SHOWN]] = text_of(EventType.CARDS_SHOWN)


class SeatEntry(TypedDict):
    seat: int
    name: str
    stack: int


class ShownCards(TypedDict):
    seat: int
    cards: list[str]


class Share(TypedDict):
    seat: int
    amount: int


class StackEntry(TypedDict):
    seat: int
    stack: int


class HandStarted(TypedDict):
    type: Literal[EventType.HAND_STARTED]
    variant: Variant
    button: int
    small_blind_seat: int | None
    big_blind_seat: int
    small_blind: int
    big_blind: int
    big_bet: int
    big_blind_ante: int
    seats: list[SeatEntry]


class BlindPosted(TypedDict):
    type: Literal[EventType.BLIND_POSTED]
    seat: int
    blind: BlindKind
    amount: int
    all_in: bool


class HoleCardsDealt(TypedDict):
    type: Literal[EventType.HOLE_CARDS_DEALT]
    seat: int
    cards: list[str] | None  # None: another seat's cards, as ``visible_events`` hides them


class PlayerActed(TypedDict):
    type: Literal[EventType.PLAYER_ACTED]
    seat: int
    street: Street
    kind: PlayedKind
    amount: int
    total: int
    all_in: bool


class TimedOut(TypedDict):
    type: Literal[EventType.TIMED_OUT]
    seat: int
    street: Street
    became: Became


class UncalledBetReturned(TypedDict):
    type: Literal[EventType.UNCALLED_BET_RETURNED]
    seat: int
    amount: int


class StreetDealt(TypedDict):
    type: Literal[EventType.STREET_DEALT]
    street: DealtStreet
    cards: list[str]
    board: list[str]


class HandsTurnedUp(TypedDict):
    type: Literal[EventType.HANDS_TURNED_UP]
    hands: list[ShownCards]


class HandShown(TypedDict):
    type: Literal[EventType.HAND_SHOWN]
    seat: int
    cards: list[str]
    category: str
    best_five: list[str]


class HandMucked(TypedDict):
    type: Literal[EventType.HAND_MUCKED]
    seat: int


class PotAwarded(TypedDict):
    type: Literal[EventType.POT_AWARDED]
    pot_index: int
    amount: int
    eligible: list[int]
    winners: list[Share]


class CardsShown(TypedDict):
    type: Literal[EventType.CARDS_SHOWN]
    seat: int
    cards: list[str]


class HandEnded(TypedDict):
    type: Literal[EventType.HAND_ENDED]
    stacks: list[StackEntry]


Event = (
    HandStarted
    | BlindPosted
    | HoleCardsDealt
    | PlayerActed
    | TimedOut
    | UncalledBetReturned
    | StreetDealt
    | HandsTurnedUp
    | HandShown
    | HandMucked
    | PotAwarded
    | HandEnded
    | CardsShown
)
"""Any event; narrow it by comparing ``event["type"]`` with an ``EventType``."""

# Cards are formatted once here: events format many cards per hand.
CARD_TEXT = tuple(format_cards(range(CARD_COUNT)))


def card_texts(cards: Iterable[int]) -> list[str]:
    """The text of each card ("Kd"), in order."""
    return [CARD_TEXT[card] for card in cards]


def hand_started(config: HandConfig) -> HandStarted:
    return {
        "type": _HAND_STARTED,
        "variant": text_of(config.variant),
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


def blind_posted(seat: int, blind: BlindKind, amount: int, all_in: bool) -> BlindPosted:
    return {"type": _BLIND_POSTED, "seat": seat, "blind": text_of(blind), "amount": amount, "all_in": all_in}


def hole_cards_dealt(seat: int, cards: list[str]) -> HoleCardsDealt:
    return {"type": _HOLE_CARDS_DEALT, "seat": seat, "cards": cards}


def player_acted(seat: int, street: Street, kind: PlayedKind, amount: int, total: int, all_in: bool) -> PlayerActed:
    return {
        "type": _PLAYER_ACTED,
        "seat": seat,
        "street": _STREET_TEXTS[street],
        "kind": _PLAYED_TEXTS[kind],
        "amount": amount,
        "total": total,
        "all_in": all_in,
    }


def timed_out(seat: int, street: Street, became: Became) -> TimedOut:
    return {"type": _TIMED_OUT, "seat": seat, "street": text_of(street), "became": text_of(became)}


def uncalled_bet_returned(seat: int, amount: int) -> UncalledBetReturned:
    return {"type": _UNCALLED_BET_RETURNED, "seat": seat, "amount": amount}


def street_dealt(street: DealtStreet, cards: list[str], board: list[str]) -> StreetDealt:
    return {"type": _STREET_DEALT, "street": text_of(street), "cards": cards, "board": board}


def hands_turned_up(hands: list[ShownCards]) -> HandsTurnedUp:
    return {"type": _HANDS_TURNED_UP, "hands": hands}


def hand_shown(seat: int, cards: list[str], category: str, best_five: list[str]) -> HandShown:
    return {
        "type": _HAND_SHOWN,
        "seat": seat,
        "cards": cards,
        "category": category,
        "best_five": best_five,
    }


def hand_mucked(seat: int) -> HandMucked:
    return {"type": _HAND_MUCKED, "seat": seat}


def pot_awarded(pot_index: int, amount: int, eligible: list[int], winners: list[tuple[int, int]]) -> PotAwarded:
    return {
        "type": _POT_AWARDED,
        "pot_index": pot_index,
        "amount": amount,
        "eligible": eligible,
        "winners": [{"seat": seat, "amount": chips} for seat, chips in winners],
    }


def hand_ended(stacks: list[tuple[int, int]]) -> HandEnded:
    return {
        "type": _HAND_ENDED,
        "stacks": [{"seat": seat, "stack": stack} for seat, stack in stacks],
    }


def cards_shown(seat: int, cards: list[str]) -> CardsShown:
    return {"type": _CARDS_SHOWN, "seat": seat, "cards": cards}
