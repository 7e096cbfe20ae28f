"""What one viewer sees besides the public table: their seat, cards, controls and seat forms.

Hole cards come only from the engine's projection for the viewer's own seat
in the latest hand, so the next player to sit in a seat never sees a card
that was not shown.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from tables.engine import PlayerStatus
from tables.engine.projection import view_for
from tables.models import Seat
from tables.selectors.table_state import TableState

from .cards import CardView, card_views
from .controls import ActionControls, action_controls
from .log_lines import LogLine
from .table_view import SeatView, TableView
from .wording import dealt_to_you


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
    top_up_room: int = 0  # chips the seated viewer may still add before reaching the table maximum
    default_buy_in: int = 0

    @property
    def bottom_seat(self) -> int:
        """The seat drawn at six o'clock: the viewer's own, else seat 1."""
        return self.seat.number if self.seat else 1


def viewer_view(state: TableState, public: TableView, user_id: int | None, bankroll: int | None = None) -> ViewerView:
    """``user_id``: None for an anonymous viewer; ``bankroll``: only needed for one without a seat."""
    seat = next((seat for seat in state.seats.values() if seat.player_id == user_id), None) if user_id else None
    me = ViewerView(logged_in=user_id is not None, seat=seat)
    if seat is None:
        me.bankroll = bankroll if user_id is not None else None
        me.can_sit_down = me.bankroll is not None and public.seats_open
        me.default_buy_in = min(state.table.max_buy_in, me.bankroll or 0)
        return me
    me.top_up_room = max(0, state.table.max_buy_in - seat.stack - seat.pending_top_up)
    me.own_seat = dataclasses.replace(public.seats[seat.number - 1], is_viewer=True)
    hand_seat = next((number for number, player in state.hand_players.items() if player == user_id), None)
    if hand_seat is not None and hand_seat == seat.number:
        _add_hand(me, state, public, hand_seat)
    return me


def _add_hand(me: ViewerView, state: TableState, public: TableView, hand_seat: int) -> None:
    projection = view_for(state.engine, hand_seat)
    played = next(played for played in projection["seats"] if played["seat"] == hand_seat)
    won = me.own_seat.won > 0
    me.my_cards = card_views(played["cards"] or (), public.hand.winning_cards if won else ())
    if me.my_cards:
        me.own_seat.cards, me.own_seat.face_down = me.my_cards, 0
        me.dealt_line = LogLine(dealt_to_you(), "private", card_views(played["cards"]))
    running = not public.hand.is_over
    me.in_running_hand = running and played["status"] == PlayerStatus.ACTIVE
    if running:
        me.controls = action_controls(projection, state.hand.sequence)
