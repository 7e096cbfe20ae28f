"""Between the database and the engine: a Hand row and its events <-> an engine hand.

Every service rebuilds the engine state from the log (the same path crash
recovery and the replayer take), so no engine state lives between requests.
"""

from __future__ import annotations

from tables.engine import Hand as EngineHand
from tables.engine import HandConfig
from tables.engine.cards import parse_cards
from tables.engine.log import actions_from_events
from tables.models import Hand, HandEvent


def logged_events(hand: Hand) -> list[dict]:
    return list(HandEvent.objects.filter(hand=hand).order_by("sequence").values_list("payload", flat=True))


def rebuild(hand: Hand, events: list[dict] | None = None) -> EngineHand:
    """The engine state of a hand, replayed from its configuration, deck and logged actions."""
    events = logged_events(hand) if events is None else events
    return EngineHand.replay(HandConfig.from_dict(hand.config), parse_cards(hand.deck), actions_from_events(events))


def append_events(hand: Hand, events: list[dict], *, first_sequence: int) -> None:
    """Append to the log; `first_sequence` is the number of events already logged
    (the unique (hand, sequence) constraint refuses a wrong one)."""
    HandEvent.objects.bulk_create(
        HandEvent(hand=hand, sequence=first_sequence + offset, type=event["type"], payload=event)
        for offset, event in enumerate(events)
    )
