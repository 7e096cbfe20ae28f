"""A hand as the database keeps it, read back: its event log, its engine state, the running hand.

A hand is its configuration, its deck and its events; replaying the logged actions rebuilds
the engine's state exactly (crash recovery, the replayer and every service take this path).
"""

from __future__ import annotations

from collections.abc import Iterable

from tables.engine import Hand as EngineHand
from tables.engine import HandConfig
from tables.engine.cards import parse_cards
from tables.engine.events import Event, EventType
from tables.engine.log import actions_from_events
from tables.models import Hand, HandEvent, Seat, Table


def logged_events(hand: Hand) -> list[Event]:
    return list(HandEvent.objects.filter(hand=hand).order_by("sequence").values_list("payload", flat=True))


def logged_events_of(hand_ids: Iterable[int]) -> dict[int, list[Event]]:
    """Each hand's events in order, for many hands in one query (``hand id -> events``)."""
    events: dict[int, list[Event]] = {hand_id: [] for hand_id in hand_ids}
    rows = HandEvent.objects.filter(hand_id__in=events).order_by("hand_id", "sequence")
    for hand_id, payload in rows.values_list("hand_id", "payload"):
        events[hand_id].append(payload)
    return events


def rebuild(hand: Hand, events: list[Event] | None = None) -> EngineHand:
    """The engine state of a hand, replayed from its configuration, deck and logged actions."""
    events = logged_events(hand) if events is None else events
    engine = EngineHand.replay(HandConfig.from_dict(hand.config), parse_cards(hand.deck), actions_from_events(events))
    for event in events:  # after the hand: a winner nobody called chose to show
        if event["type"] == EventType.CARDS_SHOWN:
            engine.show_uncontested(event["seat"])
    return engine


def running_hand(table: Table | int) -> Hand | None:
    return Hand.objects.filter(table=table, state=Hand.State.RUNNING).first()


def latest_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table).order_by("-number").first()


def dealt_into(hand: Hand | None, seat: Seat) -> bool:
    """Whether the seat was dealt into ``hand`` (its stack is in play, RULES 3.8)."""
    return hand is not None and any(entry["seat"] == seat.number for entry in hand.config["seats"])
