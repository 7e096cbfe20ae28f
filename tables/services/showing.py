"""Showing one's cards after winning a hand nobody called (RULES 5.1: the winner need not show;
they may choose to). One click after the hand, while it is still the table's latest: the
engine's ``show_uncontested`` adds a ``cards_shown`` event to the hand's log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext

from tables.engine.errors import IllegalAction
from tables.models import Hand, HandPlayer
from tables.selectors.hands import latest_hand, logged_events, rebuild

from .changes import mark_changed
from .errors import TableError, refusal_text
from .event_log import append_events
from .locking import lock_table

if TYPE_CHECKING:
    from accounts.models import User


def show_cards(*, user: User, table_id: int) -> Hand:
    with transaction.atomic():
        table = lock_table(table_id)
        hand = latest_hand(table)
        if hand is None or hand.state != Hand.State.COMPLETE:
            raise TableError(gettext("Cards are shown this way only after the hand."))
        played = HandPlayer.objects.filter(hand=hand, player=user).first()
        if played is None:
            raise TableError(gettext("You did not play the last hand."))
        events = logged_events(hand)
        engine = rebuild(hand, events)
        try:
            shown = engine.show_uncontested(played.seat)
        except IllegalAction as refusal:
            raise TableError(refusal_text(refusal)) from None
        append_events(hand, shown, first_sequence=len(events))
        hand.sequence += 1  # a new state of the hand: screens replay it afresh
        hand.save(update_fields=["sequence"])
        mark_changed(table, lobby=False)
    return hand
