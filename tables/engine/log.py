"""Reading a hand's event log back into the actions that made it.

A hand is its configuration, its deck and its events; the events of the
players' choices (``player_acted``, ``timed_out``) are exactly the actions
to replay. Blinds, deals, showdown and awards follow from them.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import events as ev
from .betting import Action, ActionKind

_SIZED = {ActionKind.BET.value, ActionKind.RAISE.value}


def actions_from_events(events: Iterable[dict]) -> list[Action]:
    actions: list[Action] = []
    for event in events:
        kind = event["type"]
        if kind == ev.PLAYER_ACTED:
            amount = event["total"] if event["kind"] in _SIZED else None
            actions.append(Action(event["seat"], ActionKind(event["kind"]), amount))
        elif kind == ev.TIMED_OUT:
            actions.append(Action(event["seat"], ActionKind.TIMEOUT))
    return actions
