"""Who may open a hand, and which of its events they may see.

Players of a hand may open it; staff may open any hand. A player sees their
own hole cards and the hands shown or turned up (``projection``). Staff see
every hole card, but only of complete hands: a running hand shows them what
a player at the table would see of it, never more.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, TypeVar

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from tables.engine.events import Event, EventType, HandStarted
from tables.engine.projection import visible_events
from tables.models import Hand, HandPlayer
from tables.selectors.hands import logged_events, logged_events_of

if TYPE_CHECKING:
    from accounts.models import User

_Row = TypeVar("_Row")

# A range export is one request: bound the work it may ask for.
MAX_HANDS_PER_EXPORT = 200
# The whole history is read this many hands at a time: three queries a batch, whatever its length.
HISTORY_BATCH = 200


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as one viewer may see it.

    ``viewer_seat``: the viewer's seat in the hand, None if they did not play it.
    ``full_knowledge``: ``events`` hold every hole card (staff, complete hands).
    """

    hand: Hand
    events: list[Event]
    viewer_seat: int | None
    full_knowledge: bool

    @property
    def started(self) -> HandStarted:
        """The first event: every hand's log begins with its ``hand_started``."""
        first = self.events[0]
        assert first["type"] == EventType.HAND_STARTED
        return first

    @property
    def is_complete(self) -> bool:
        return self.hand.state == Hand.State.COMPLETE


def hands_open_to(user: User) -> QuerySet[Hand]:
    hands = Hand.objects.select_related("table")
    return hands if user.is_staff else hands.filter(players__player=user)


def open_hand(user: User, hand_id: int, *, complete_only: bool = False) -> HandRecord:
    """The hand as ``user`` may see it; Http404 if they may not open it."""
    hands = hands_open_to(user)
    if complete_only:
        hands = hands.filter(state=Hand.State.COMPLETE)
    hand = get_object_or_404(hands, pk=hand_id)
    return _record(hand, user)


def own_complete_hands(user: User, first_id: int, last_id: int) -> list[HandRecord]:
    """The complete hands ``user`` played with ids in [first_id, last_id], oldest first (staff included:
    a range export is of one's own hands)."""
    hands = (
        Hand.objects.select_related("table")
        .filter(players__player=user, state=Hand.State.COMPLETE, pk__gte=first_id, pk__lte=last_id)
        .order_by("pk")[:MAX_HANDS_PER_EXPORT]
    )
    return [_record(hand, user) for hand in hands]


def every_own_complete_hand(user: User, variant: str | None = None) -> Iterator[HandRecord]:
    """Every complete hand ``user`` played (of ``variant``, if given), oldest first, as a player at the
    table saw it: their own hole cards and the hands shown, never more, staff or not."""
    rows = HandPlayer.objects.filter(player=user, hand__state=Hand.State.COMPLETE)
    if variant is not None:
        rows = rows.filter(hand__config__variant=variant)
    seats = rows.order_by("hand_id").values_list("hand_id", "seat")
    for batch in batched(seats.iterator(chunk_size=HISTORY_BATCH), HISTORY_BATCH):
        seat_of = dict(batch)
        hands = Hand.objects.select_related("table").in_bulk(seat_of)
        events = logged_events_of(seat_of)
        for hand_id, seat in batch:
            yield HandRecord(hands[hand_id], visible_events(events[hand_id], seat), seat, full_knowledge=False)


def batched(rows: Iterable[_Row], size: int) -> Iterator[list[_Row]]:
    """``rows`` in lists of ``size`` (the last one shorter)."""
    rows = iter(rows)
    while batch := list(islice(rows, size)):
        yield batch


def _record(hand: Hand, user: User) -> HandRecord:
    seat = HandPlayer.objects.filter(hand=hand, player=user).values_list("seat", flat=True).first()
    events = logged_events(hand)
    if user.is_staff and hand.state == Hand.State.COMPLETE:
        return HandRecord(hand, events, seat, full_knowledge=True)
    return HandRecord(hand, visible_events(events, seat), seat, full_knowledge=False)
