"""A hand's fairness proof for one viewer: proofs of exactly the cards they saw, and the full
reveal once it is due (docs/fair-dealing.md).

A player of a complete hand gets, for each of their own hole cards, each board card and each
card shown or turned up, the card, its position in the deck, its salt and its Merkle path:
nothing about any other position. The full reveal (the server seed and every contribution,
from which the whole deck and all salts follow) comes ``settings.FAIR_DEAL_REVEAL_AFTER``
after the hand ended (never, if that is None), and to staff as soon as the hand is complete.
The same document is the downloadable JSON file that ``verify_hand.py`` and the hand page's
script check.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, NotRequired, TypedDict

from django.conf import settings

from tables.engine import fairness
from tables.engine.cards import parse_cards
from tables.engine.events import Event, EventType
from tables.models import Hand

from .access import HandRecord

if TYPE_CHECKING:
    from accounts.models import User

PROOF_FORMAT = "omaha-room/hand-proof/v1"


class SeenAs(TypedDict):
    """Where the viewer saw a card: a seat's hole card, or a board card."""

    kind: str  # "hole" or "board"
    seat: NotRequired[int]
    card_index: NotRequired[int]
    board_index: NotRequired[int]


# A player's contribution to the deal, as ``Hand.contributions`` holds it: seat, value (hex), source.
Contribution = dict[str, object]


@dataclass(frozen=True, slots=True)
class CardProof:
    card: str
    position: int
    seen_as: SeenAs
    salt: str
    path: list[str]

    @property
    def label(self) -> str:
        if self.seen_as["kind"] == "hole":
            return f"seat {self.seen_as['seat']}, hole card {self.seen_as['card_index'] + 1}"
        return ("flop", "flop", "flop", "turn", "river")[self.seen_as["board_index"]]

    def as_json(self) -> dict[str, object]:
        return {
            "seen_as": self.seen_as,
            "position": self.position,
            "card": self.card,
            "salt": self.salt,
            "path": self.path,
        }


@dataclass(frozen=True, slots=True)
class HandProof:
    hand: Hand
    dealing_order: list[int]
    cards: list[CardProof]
    own_contribution: Contribution | None
    full_reveal: dict[str, object] | None
    full_reveal_at: datetime | None  # None: never (for players)

    def as_json(self) -> dict[str, object]:
        return {
            "format": PROOF_FORMAT,
            "hand": {"id": self.hand.pk, "table": self.hand.table.name, "number": self.hand.number},
            "merkle_root": self.hand.merkle_root,
            "seed_commitment": self.hand.seed_commitment,
            "dealing_order": self.dealing_order,
            "cards": [card.as_json() for card in self.cards],
            "own_contribution": self.own_contribution,
            "full_reveal_at": self.full_reveal_at.isoformat() if self.full_reveal_at else None,
            "full_reveal": self.full_reveal,
        }


def full_reveal_at(hand: Hand) -> datetime | None:
    """When the hand's players get its full reveal; None: never."""
    delay = settings.FAIR_DEAL_REVEAL_AFTER
    if delay is None or hand.ended_at is None:
        return None
    return hand.ended_at + delay


def full_reveal_open(record: HandRecord, user: User, now: datetime) -> bool:
    if not record.is_complete:
        return False
    if user.is_staff:
        return True
    at = full_reveal_at(record.hand)
    return at is not None and now >= at


def hand_proof(record: HandRecord, user: User, now: datetime) -> HandProof | None:
    """The proof ``user`` may have of a hand ``record`` holds as they may see it; None while it
    runs (or for a hand dealt before per-card commitments)."""
    hand = record.hand
    if not record.is_complete or not hand.merkle_root:
        return None
    contributions = [
        fairness.Contribution(each["seat"], bytes.fromhex(each["value"]), fairness.Source(each["source"]))
        for each in hand.contributions
    ]
    salts = fairness.card_salts(fairness.derivation_key(bytes.fromhex(hand.server_seed), contributions))
    dealt = fairness.commit_deck(parse_cards(hand.deck), salts)
    order = [event["seat"] for event in record.events if event["type"] == EventType.HOLE_CARDS_DEALT]
    cards = [
        CardProof(card, position, seen_as, dealt.salts[position].hex(), [node.hex() for node in dealt.path(position)])
        for card, position, seen_as in _seen_cards(record.events, order)
    ]
    own = next((each for each in hand.contributions if each["seat"] == record.viewer_seat), None)
    reveal: dict[str, object] | None = None
    if full_reveal_open(record, user, now):
        reveal = {"server_seed": hand.server_seed, "contributions": hand.contributions}
    return HandProof(hand, order, cards, own, reveal, full_reveal_at(hand))


def _seen_cards(events: list[Event], order: list[int]) -> list[tuple[str, int, SeenAs]]:
    """(card, position, seen as) of every card these (viewer-filtered) events show, each once."""
    players = len(order)
    seen: dict[int, tuple[str, int, SeenAs]] = {}

    def hole(seat: int, cards: list[str]) -> None:
        for index, card in enumerate(cards):
            position = fairness.hole_card_position(order.index(seat), index, players)
            seen.setdefault(position, (card, position, {"kind": "hole", "seat": seat, "card_index": index}))

    for event in events:
        if event["type"] == EventType.HOLE_CARDS_DEALT:
            if event["cards"] is not None:  # another seat's: hidden from this viewer
                hole(event["seat"], event["cards"])
        elif event["type"] == EventType.HAND_SHOWN:
            hole(event["seat"], event["cards"])
        elif event["type"] == EventType.HANDS_TURNED_UP:
            for shown in event["hands"]:
                hole(shown["seat"], shown["cards"])
        elif event["type"] == EventType.STREET_DEALT:
            first = len(event["board"]) - len(event["cards"])
            for offset, card in enumerate(event["cards"]):
                position = fairness.board_position(first + offset, players)
                seen.setdefault(position, (card, position, {"kind": "board", "board_index": first + offset}))
    return [seen[position] for position in sorted(seen)]
