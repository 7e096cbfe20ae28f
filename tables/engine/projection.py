"""What one viewer may see of a hand.

A seated player sees their own hole cards; everyone sees the cards of hands
shown at showdown or turned up in an all-in. A spectator (``viewer_seat`` is
None) sees no hole card until it is shown. Mucked hands are never revealed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from . import events as ev
from .hand import Hand

# The types these loops look for, under module names: they run over every event of a hand for
# every screen, and a lookup on the enum class costs several times a global's.
_HOLE_CARDS_DEALT: Final = ev.EventType.HOLE_CARDS_DEALT
_HAND_SHOWN: Final = ev.EventType.HAND_SHOWN
_HANDS_TURNED_UP: Final = ev.EventType.HANDS_TURNED_UP
_CARDS_SHOWN: Final = ev.EventType.CARDS_SHOWN


def visible_events(events: Iterable[ev.Event], viewer_seat: int | None) -> list[ev.Event]:
    """The events as ``viewer_seat`` may see them.

    Another seat's ``hole_cards_dealt`` keeps its place (the deal is public)
    but its ``cards`` become None. Other events are public and passed as is.
    """
    visible: list[ev.Event] = []
    for event in events:
        if event["type"] == _HOLE_CARDS_DEALT and event["seat"] != viewer_seat:
            event = {**event, "cards": None}
        visible.append(event)
    return visible


def revealed_cards(events: Iterable[ev.Event]) -> dict[int, list[str]]:
    """Hole cards made public so far, per seat (shown, turned up all-in, or shown by a winner nobody called)."""
    revealed: dict[int, list[str]] = {}
    for event in events:
        if event["type"] == _HAND_SHOWN:
            revealed[event["seat"]] = event["cards"]
        elif event["type"] == _HANDS_TURNED_UP:
            for shown in event["hands"]:
                revealed[shown["seat"]] = shown["cards"]
        elif event["type"] == _CARDS_SHOWN:
            revealed[event["seat"]] = event["cards"]
    return revealed


def view_for(hand: Hand, viewer_seat: int | None) -> dict[str, Any]:
    """A JSON-safe snapshot of the table for one viewer.

    ``legal_actions`` is filled only when the viewer is the seat to act.
    """
    return Views(hand).of(viewer_seat)  # its own: nothing else holds these Views


class Views:
    """``view_for`` of one hand state for any number of viewers: what they all see (the
        spectator's view) is worked out once, and each seat's view is it with that seat's own hole
        cards, and its legal actions when it is to act. The hand must not change while this is used,
    and the views it gives share their parts: they are read, not changed."""

    def __init__(self, hand: Hand):
        self._hand = hand
        self._seen: dict[int | None, dict[str, Any]] = {}
        config = hand.config
        revealed = revealed_cards(hand.events)
        names = {setup.seat: setup.name for setup in config.seats}
        stacks, bets = hand.stacks, hand.bets
        contributed, statuses = hand.contributed, hand.statuses
        seats = [
            {
                "seat": seat,
                "name": names[seat],
                "stack": stacks[seat],
                "bet": bets[seat],
                "contributed": contributed[seat],
                "status": statuses[seat],
                "cards": revealed.get(seat),
            }
            for seat in sorted(names)
        ]
        self._legal = hand.legal_actions()
        pots = hand.pots
        self._spectator: dict[str, Any] = {
            "viewer_seat": None,
            "variant": config.variant.value,
            "small_blind": config.small_blind,
            "big_blind": config.big_blind,
            "big_bet": config.big_bet,
            "button": config.button,
            "small_blind_seat": config.small_blind_seat,
            "big_blind_seat": config.big_blind_seat,
            "street": hand.street.value,
            "board": ev.card_texts(hand.board),
            "to_act": hand.to_act,
            "is_over": hand.is_over,
            "pots": [pot.to_dict() for pot in pots],
            "total_pot": sum(pot.amount for pot in pots) + sum(bets.values()),
            "seats": seats,
            "legal_actions": None,
            "results": [award.to_dict() for award in hand.results],
        }

    def of(self, viewer_seat: int | None) -> dict[str, Any]:
        """The view of ``viewer_seat`` (None: a spectator)."""
        found = self._seen.get(viewer_seat)
        if found is None:
            found = self._seen[viewer_seat] = self._view_of(viewer_seat)
        return found

    def _view_of(self, viewer_seat: int | None) -> dict[str, Any]:
        spectator = self._spectator
        hand, legal = self._hand, self._legal
        if viewer_seat is None:
            return spectator
        view = {**spectator, "viewer_seat": viewer_seat}
        hole = hand.hole_cards(viewer_seat) if any(s["seat"] == viewer_seat for s in spectator["seats"]) else None
        if hole:
            view["seats"] = [
                {**seat, "cards": ev.card_texts(hole)} if seat["seat"] == viewer_seat else seat
                for seat in spectator["seats"]
            ]
        if legal is not None and legal.seat == viewer_seat:
            view["legal_actions"] = legal.to_dict()
        return view
