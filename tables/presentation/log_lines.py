"""The hand log panel: one readable line per event the viewer may see (the words are ``wording``'s)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from config.speaking import language as active_language
from tables.engine.events import Event, EventType

from .cards import CardView, card_views
from .wording import HandWords

# The CSS class of each event's lines; None: the event has no line (hand_ended: the stacks on the table say it).
LINE_KINDS: dict[EventType, str | None] = {
    EventType.HAND_STARTED: "street",
    EventType.BLIND_POSTED: "action",
    EventType.HOLE_CARDS_DEALT: "private",
    EventType.PLAYER_ACTED: "action",
    EventType.TIMED_OUT: "action",
    EventType.UNCALLED_BET_RETURNED: "action",
    EventType.STREET_DEALT: "street",
    EventType.HANDS_TURNED_UP: "showdown",
    EventType.HAND_SHOWN: "showdown",
    EventType.HAND_MUCKED: "showdown",
    EventType.POT_AWARDED: "win",
    EventType.HAND_ENDED: None,
    EventType.CARDS_SHOWN: "showdown",
}


@dataclass(frozen=True)
class LogLine:
    text: str
    kind: str  # "action", "street", "showdown", "win", "private", "dealt-slot": a CSS class
    cards: list[CardView] = field(default_factory=list)


def log_lines(events: Sequence[Event], dealt_slot: bool = False) -> list[LogLine]:
    """``events``: already filtered by ``projection.visible_events`` for the viewer, so the
    only hole cards here are the viewer's own and those shown at showdown.

    ``dealt_slot``: the public log keeps an empty line (kind "dealt-slot") where the deal
    is, for each player's screen to fill with their own "Dealt to you"."""
    if not events:
        return []
    words = HandWords.of(events)
    # What an event's lines depend on besides the event: the language and the players' names,
    # and for a pot's award how many pots there are (the hand's end must not word again every
    # line before it). The hand's starting stacks word only its end, which has no line.
    said = (active_language(), tuple(words.names.items()))
    said_of_awards = (*said, words.pot_count)
    # The lines of the events before these, worded for the same hand in the same words (kept
    # by the last call): a held hand's log is the same event objects with new ones appended.
    # The events kept are compared, not only their count: another viewer's log of the same hand
    # holds other copies of the deal (``visible_events``), equal only where what they show is.
    key = (id(events[0]), said_of_awards, dealt_slot)
    kept = _so_far.get(key)
    start, lines = 0, []
    if kept is not None and len(kept.events) <= len(events) and tuple(events[: len(kept.events)]) == kept.events:
        start, lines, dealt_slot = len(kept.events), list(kept.lines), kept.dealt_slot
    dealt = EventType.HOLE_CARDS_DEALT  # looked up once: an enum class lookup costs more than the test
    awarded = EventType.POT_AWARDED
    for event in events[start:]:
        kind = event["type"]
        if kind == dealt and dealt_slot:
            dealt_slot = False
            lines.append(DEALT_SLOT)
            continue
        lines += _event_lines(words, said_of_awards if kind == awarded else said, event)
    if len(_so_far) >= SO_FAR_KEPT:
        _so_far.clear()
    _so_far[key] = _SoFar(tuple(events), tuple(lines), dealt_slot)
    return lines


class _SoFar(NamedTuple):
    """A hand's log lines up to an event (its events held, so the id in the key is not reused
    while kept)."""

    events: tuple[Event, ...]
    lines: tuple[LogLine, ...]
    dealt_slot: bool  # the deal's slot is still to come


_so_far: dict[tuple[int, tuple[object, ...], bool], _SoFar] = {}
SO_FAR_KEPT = 2_000


DEALT_SLOT = LogLine("", "dealt-slot")

# An event's lines, kept while its hand is played: a held hand's log is the same event objects
# from one action to the next, so only the new events are worded. Keyed by the event object
# (held in the entry, so its id is not reused while the entry lives) and what words it.
_worded: dict[tuple[int, tuple[object, ...]], tuple[Event, tuple[LogLine, ...]]] = {}
WORDED_KEPT = 20_000


def _event_lines(words: HandWords, said: tuple[object, ...], event: Event) -> tuple[LogLine, ...]:
    key = (id(event), said)
    found = _worded.get(key)
    if found is not None and found[0] is event:
        return found[1]
    kind = LINE_KINDS[event["type"]]
    lines: tuple[LogLine, ...] = ()
    if kind is not None:
        lines = tuple(
            LogLine(text, kind, card_views(cards)) if cards else LogLine(text, kind)
            for text, cards in words.lines(event)
        )
    if len(_worded) >= WORDED_KEPT:
        _worded.clear()
    _worded[key] = (event, lines)
    return lines
