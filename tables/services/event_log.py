"""Appending to a hand's event log (reading it back: ``tables.selectors.hands``)."""

from __future__ import annotations

from tables.engine.events import Event
from tables.models import Hand, HandEvent


def append_events(hand: Hand, events: list[Event], *, first_sequence: int) -> None:
    """Append to the log; ``first_sequence`` is the number of events already logged
    (the unique (hand, sequence) constraint refuses a wrong one)."""
    HandEvent.objects.bulk_create(
        HandEvent(hand=hand, sequence=first_sequence + offset, type=event["type"], payload=event)
        for offset, event in enumerate(events)
    )
