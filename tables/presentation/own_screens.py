"""A seated player's own fragments for a change, reused whole while nothing they show moved.

An action changes the own fragments of two players (the one who acted, the one whose turn it
now is); the others' show what they showed, but whom they wait for. Working their views out
again only to find each piece's model unchanged (``view_models``) was most of a change's
screens (py-spy at 100 tables, 2026-12-07): for each of them, ``own_key`` reads what those
views are made of (their seat, its box on the felt, their cards in the hand, the board, the
hand's end, the table's limits and seed), and while it is the same the fragments made last
are the fragments now, whom they wait for filled in again (``fill_waiting_for``).

The player whose turn it is has no key (their buttons move with every bet): their fragments
are always worked out. ``tests/web/test_own_screens.py`` plays hands and checks, at every
change, that what is reused is what working everything out again makes.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from config.speaking import language as active_language
from tables.models import Seat
from tables.selectors.allowance import allowance_limit, allowance_of
from tables.selectors.table_state import TableState

from .fragments import fill_waiting_for, viewer_fragments
from .table_view import TableView
from .view_models import Memo, Rendered
from .viewer_view import viewer_view

# The memo's entry of a player's whole own fragments (``view_models``: one per audience).
WHOLE = "own*"
_SEAT_COLUMNS = tuple(field.attname for field in Seat._meta.concrete_fields)


def own_fragments(state: TableState, view: TableView, player_id: int, memo: Memo | None) -> dict[str, str]:
    """The seated player's own fragments at ``state`` (``view``: the public view, in the
    active language, which is theirs); ``memo``: their audience's (``screens``)."""
    if memo is None:
        return viewer_fragments(view, viewer_view(state, view, player_id))
    key = own_key(state, view, player_id)
    kept = memo.get(WHOLE)
    if key is not None and kept and kept[-1].model == key:
        fragments: dict[str, str] = kept[-1].html  # type: ignore[assignment]
    else:
        fragments = viewer_fragments(view, viewer_view(state, view, player_id), memo=memo, fill_waiting=False)
        memo[WHOLE] = [Rendered(key, fragments)] if key is not None else []  # type: ignore[arg-type]
    return {**fragments, "controls": fill_waiting_for(fragments["controls"], view, memo)}


def own_key(state: TableState, view: TableView, player_id: int) -> tuple[Any, ...] | None:
    """Everything ``viewer_view`` and ``viewer_fragments`` read for this seated player but whom
    they wait for; None when their fragments must be worked out (no seat here, or their turn)."""
    seat = next((seat for seat in state.seats.values() if seat.player_id == player_id), None)
    if seat is None:
        return None
    public_seat = view.seats[seat.number - 1]
    if public_seat.is_turn:
        return None
    hand_seat = next((number for number, player in state.hand_players.items() if player == player_id), None)
    in_hand: tuple[Any, ...] | None = None
    if hand_seat is not None and hand_seat == seat.number:
        engine, views, hand = state.engine, state.views, view.hand
        if engine is None or views is None or hand is None:
            return None
        projection = views.of(hand_seat)
        if projection["legal_actions"] is not None:
            return None
        played = next(played for played in projection["seats"] if played["seat"] == hand_seat)
        can_show = hand.is_over and engine.can_show_uncontested(hand_seat)
        in_hand = (tuple(played["cards"] or ()), played["status"], tuple(projection["board"]), can_show)
    table, hand_view = state.table, view.hand
    return (
        active_language(),
        tuple(getattr(seat, column) for column in _SEAT_COLUMNS),
        (table.pk, table.seat_count, table.min_buy_in, table.max_buy_in, table.next_seed_commitment),
        allowance_of(seat.protected_all_ins_at, allowance_limit(), view.now or timezone.now()),
        public_seat,
        hand_seat,
        in_hand,
        None if hand_view is None else (hand_view.number, hand_view.is_over, frozenset(hand_view.winning_cards)),
        view.clock is not None,
    )
