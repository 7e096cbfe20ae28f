"""What one viewer sees besides the public table: their seat, cards, controls and seat forms.

Hole cards come only from the engine's projection for the viewer's own seat
in the latest hand, so the next player to sit in a seat never sees a card
that was not shown.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from django.utils import timezone

from config.speaking import language as active_language
from tables.engine import PlayerStatus
from tables.engine.cards import format_cards, parse_cards
from tables.engine.hand_words import best_hand
from tables.models import Seat
from tables.selectors.allowance import Allowance, allowance_limit, allowance_of
from tables.selectors.coming_back import ComingBack
from tables.selectors.table_state import TableState

from .cards import CardView, card_views
from .controls import ActionControls, action_controls
from .log_lines import LogLine
from .table_view import SeatView, TableView
from .wording import dealt_to_you, hand_in_words


@dataclass(frozen=True)
class HandReadout:
    """The viewer's best hand so far, from the flop on (RULES 5.2): its words and its five cards."""

    words: str
    cards: list[CardView]  # the two hole cards, then the three board cards


@dataclass
class ViewerView:
    logged_in: bool
    seat: Seat | None = None  # the viewer's seat row, if seated
    own_seat: SeatView | None = None  # the felt's seat box as its owner sees it
    bankroll: int | None = None  # for a logged-in viewer without a seat: what they can buy in with
    can_sit_down: bool = False
    my_cards: list[CardView] = field(default_factory=list)
    in_running_hand: bool = False  # the viewer still has cards in a running hand: pre-actions apply
    controls: ActionControls | None = None
    dealt_line: LogLine | None = None  # "Dealt to you:", in the hand log's place for it
    readout: HandReadout | None = None  # their hand in words, only on their own screen
    can_show_cards: bool = False  # they won the latest hand uncontested and may show (RULES 5.1)
    top_up_room: int = 0  # chips the seated viewer may still add before reaching the table maximum
    default_buy_in: int = 0
    waiting_position: int | None = None  # 1: first in line on the waiting list
    seat_offered_until: datetime | None = None  # a free seat is held for this viewer until then
    can_join_waiting_list: bool = False
    buy_in_range: tuple[int, int] = (0, 0)  # for a viewer without a seat
    coming_back: ComingBack | None = None  # they left this table a moment ago (RULES 7.5)
    allowance: Allowance | None = None  # protected all-ins left (RULES 6.5); None: unlimited

    @property
    def offer_seconds_left(self) -> int:
        return (
            0
            if self.seat_offered_until is None or self.now is None
            else max(0, int((self.seat_offered_until - self.now).total_seconds()))
        )

    now: datetime | None = None

    @property
    def bottom_seat(self) -> int:
        """The seat drawn at six o'clock: the viewer's own, else seat 1."""
        return self.seat.number if self.seat else 1


def viewer_view(
    state: TableState,
    public: TableView,
    user_id: int | None,
    bankroll: int | None = None,
    back: ComingBack | None = None,
) -> ViewerView:
    """``user_id``: None for an anonymous viewer; ``bankroll``, ``back``: only needed for one without a seat."""
    seat = next((seat for seat in state.seats.values() if seat.player_id == user_id), None) if user_id else None
    me = ViewerView(logged_in=user_id is not None, seat=seat)
    if seat is None:
        me.bankroll = bankroll if user_id is not None else None
        me.now = public.now
        free_for_me = len(public.free_seats) - public.offers_to_others(user_id)
        me.can_sit_down = me.bankroll is not None and public.seats_open and free_for_me > 0
        if user_id is not None:
            _add_waiting(me, public, user_id, free_for_me)
        me.buy_in_range = (state.table.min_buy_in, state.table.max_buy_in)
        if back is not None and back.stack > state.table.min_buy_in:  # RULES 7.5
            me.coming_back = back
            me.buy_in_range = (back.stack, max(back.stack, state.table.max_buy_in))
        me.default_buy_in = min(me.buy_in_range[1], me.bankroll or 0)
        return me
    me.top_up_room = max(0, state.table.max_buy_in - seat.stack - seat.pending_top_up)
    me.allowance = allowance_of(seat.protected_all_ins_at, allowance_limit(), public.now or timezone.now())
    me.own_seat = dataclasses.replace(public.seats[seat.number - 1], is_viewer=True)
    hand_seat = next((number for number, player in state.hand_players.items() if player == user_id), None)
    if hand_seat is not None and hand_seat == seat.number:
        _add_hand(me, state, public, hand_seat)
    return me


def _add_hand(me: ViewerView, state: TableState, public: TableView, hand_seat: int) -> None:
    engine, views, hand, own_seat, public_hand = state.engine, state.views, state.hand, me.own_seat, public.hand
    # The viewer played the latest hand, which is on the table, replayed, with their seat in it.
    assert engine is not None and views is not None and hand is not None
    assert own_seat is not None and public_hand is not None
    projection = views.of(hand_seat)
    played = next(played for played in projection["seats"] if played["seat"] == hand_seat)
    cards = tuple(played["cards"] or ())
    won = frozenset(card for card in cards if card in public_hand.winning_cards) if own_seat.won > 0 else frozenset()
    folded = played["status"] == PlayerStatus.FOLDED
    own = _own_cards(cards, tuple(projection["board"]), folded, won, active_language())
    me.readout = own.readout
    me.my_cards = list(own.my_cards)
    if own.my_cards:
        own_seat.cards, own_seat.face_down = list(own.my_cards), 0
        me.dealt_line = own.dealt_line
    running = not public_hand.is_over
    me.can_show_cards = not running and engine.can_show_uncontested(hand_seat)
    me.in_running_hand = running and played["status"] == PlayerStatus.ACTIVE
    if running:
        me.controls = action_controls(projection, hand.sequence)


@dataclass(frozen=True)
class _OwnCards:
    readout: HandReadout | None
    my_cards: tuple[CardView, ...]
    dealt_line: LogLine | None


@lru_cache(maxsize=4096)
def _own_cards(
    cards: tuple[str, ...], board: tuple[str, ...], folded: bool, won: frozenset[str], language: str | None
) -> _OwnCards:
    """What the viewer's own cards show them: their best hand so far in words and cards, from
    the flop on while they hold cards (RULES 5.2), their cards marked (``won``: those of the
    winning five), and their "Dealt to you" line. The same cards, board and language make the
    same: worked out once per street, not for every action of it (``language``: the active one)."""
    readout: HandReadout | None = None
    best_cards: tuple[str, ...] = ()
    if len(board) >= 3 and cards and not folded:
        best = best_hand(parse_cards(cards), parse_cards(board))
        best_cards = tuple(format_cards(best.value.cards))
        readout = HandReadout(hand_in_words(best.words), card_views(best_cards, best=best_cards))
    my_cards = tuple(card_views(cards, won, best_cards))
    dealt_line = LogLine(dealt_to_you(), "private", card_views(cards)) if cards else None
    return _OwnCards(readout, my_cards, dealt_line)


def _add_waiting(me: ViewerView, public: TableView, user_id: int, free_for_me: int) -> None:
    """Where the viewer is on the waiting list, a seat held for them, or whether they may join it."""
    line = [player for player, _until in public.waiting]
    if user_id in line:
        me.waiting_position = line.index(user_id) + 1
        until = public.waiting[me.waiting_position - 1][1]
        if until is not None and public.now is not None and until > public.now:
            me.seat_offered_until = until
    table = public.table
    me.can_join_waiting_list = (
        me.waiting_position is None and table.is_active and not table.closing and free_for_me <= 0
    )
