"""The list of hands a player played, newest first, with their cards and result."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.core.paginator import Page, Paginator

from tables.engine.events import EventType
from tables.models import Hand, HandEvent, HandPlayer

from .game import game_name, stakes_label

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from accounts.models import User

HANDS_PER_PAGE = 25


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One line of the list. ``net`` is None while the hand is running."""

    hand_id: int
    hand_number: int
    table_name: str
    game: StrOrPromise  # translated when shown
    stakes: str
    started_at: datetime
    hole_cards: list[str]
    net: int | None
    cancelled: bool = False  # by staff: every stack went back to what it was at the deal


def played_hands_page(user: User, page_number: str | None) -> Page[HandPlayer | PlayedHand]:
    """The page ``page_number`` (any text; out of range gives the last page) of ``user``'s hands."""
    rows = (
        HandPlayer.objects.filter(player=user).select_related("hand__table").order_by("-hand__started_at", "-hand_id")
    )
    # The page's rows, then the lines made of them.
    paginator: Paginator[HandPlayer | PlayedHand] = Paginator(rows, HANDS_PER_PAGE)
    page = paginator.get_page(page_number)
    page.object_list = _played_hands([row for row in page.object_list if isinstance(row, HandPlayer)])
    return page


def _played_hands(rows: list[HandPlayer]) -> list[PlayedHand]:
    seat_of = {row.hand_id: row.seat for row in rows}
    deals = HandEvent.objects.filter(hand_id__in=seat_of, type=EventType.HOLE_CARDS_DEALT).values_list(
        "hand_id", "payload"
    )
    # Only the player's own deal is read: other seats' cards never leave this function.
    own_cards = {hand_id: payload["cards"] for hand_id, payload in deals if payload["seat"] == seat_of[hand_id]}
    return [
        PlayedHand(
            hand_id=row.hand_id,
            hand_number=row.hand.number,
            table_name=row.hand.table.name,
            game=game_name(row.hand.config),
            stakes=stakes_label(row.hand.config),
            started_at=row.hand.started_at,
            hole_cards=own_cards.get(row.hand_id, []),
            net=row.net,
            cancelled=row.hand.state == Hand.State.CANCELLED,
        )
        for row in rows
    ]
