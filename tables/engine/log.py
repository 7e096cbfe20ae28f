"""Reading a hand's event log back into the actions that made it.

A hand is its configuration, its deck and its events; the events of the
players' choices (``player_acted``, ``timed_out``) are exactly the actions
to replay. Blinds, deals, showdown and awards follow from them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from . import events as ev
from .betting import Action, ActionKind

_SIZED = frozenset({ActionKind.BET, ActionKind.RAISE})
# Under module names: every service call replays a hand's log (an enum class lookup costs more).
_PLAYER_ACTED: Final = ev.EventType.PLAYER_ACTED
_TIMED_OUT: Final = ev.EventType.TIMED_OUT


def actions_from_events(events: Iterable[ev.Event]) -> list[Action]:
    """The actions the events record, in order: the players' choices and the clock's timeouts."""
    actions: list[Action] = []
    for event in events:
        if event["type"] == _PLAYER_ACTED:
            amount = event["total"] if event["kind"] in _SIZED else None
            actions.append(Action(event["seat"], event["kind"], amount))
        elif event["type"] == _TIMED_OUT:
            actions.append(Action(event["seat"], ActionKind.TIMEOUT))
    return actions
