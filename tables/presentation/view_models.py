"""Each fragment's view model: the few fields its template reads, typed and comparable.

A change renders a fragment for an audience (the table's group in one language, one seated
player) only when its view model differs from the one this process rendered for that
audience last: the same model renders the same HTML, so the HTML rendered then is reused.
A seat box or the controls of a player whose state did not change cost a comparison.

The felt and the controls change on almost every action, but little of them does: they are
put together from pieces (``fragments``), each with its own model here, so an action renders
again only its pieces that changed (a bet, the centre's pot); the table's version, the hand's
sequence and whom a player waits for go into slots of the kept HTML. A fragment whose template
reads something no model holds has no model (``None``) and is rendered every time.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple

from tables.models import Seat
from tables.selectors.allowance import Allowance

from .cards import CardView
from .controls import ActionControls
from .log_lines import LogLine
from .table_view import PotView, SeatView, TableView, TurnClock
from .viewer_view import ViewerView


class HandLogModel(NamedTuple):
    hand_number: int | None
    lines: tuple[LogLine, ...]
    dealt_line: LogLine | None  # the viewer's own line in its slot (None on the public log)


class SeatHeadModel(NamedTuple):
    """A taken seat box's element and name line (``seat_head``): who sits there, whose turn it is."""

    number: int
    player: str | None
    is_viewer: bool
    is_turn: bool
    folded: bool
    won: bool
    blind: str
    disconnected: bool


class SeatBodyModel(NamedTuple):
    """A taken seat box's cards and what it says under them (``seat_body``)."""

    cards: tuple[CardView, ...]
    face_down: int
    hand_category: str
    won: int
    status: str


class SeatClockModel(NamedTuple):
    """The turn's countdown on a seat, or its time bank (``seat_clock``)."""

    clock: TurnClock | None  # only while it is this seat's turn
    time_bank_seconds: int | None


class DealtModel(NamedTuple):
    line: LogLine


class FeltBoardModel(NamedTuple):
    """The middle of the felt but its pot: the hand's title and board (``felt_board``)."""

    hand_number: int | None  # None: no hand yet
    is_over: bool = False
    street: str = ""
    board: tuple[CardView, ...] = ()


class FeltPotModel(NamedTuple):
    """The pot in the middle of the felt, and its side pots (``felt_pot``)."""

    has_hand: bool
    is_over: bool = False
    total_pot: int = 0
    pots: tuple[PotView, ...] = ()


class SeatExtrasModel(NamedTuple):
    """What the felt draws at a seat besides its box: its bet and the dealer button (``seat_extras``)."""

    number: int
    player: str | None
    bet: int
    is_button: bool
    dead_button: bool


class FeltCloseModel(NamedTuple):
    """The fair-deal line under the felt (``felt_close``)."""

    merkle_root: str
    next_seed_commitment: str


class ControlsOpenModel(NamedTuple):
    """The controls' element itself, its data attributes (``controls_open``; the sequence: a slot)."""

    hand_number: int | None
    in_running_hand: bool
    has_controls: bool
    can_check: bool
    stack_and_bet: tuple[int | None, int] | None  # the own seat's, shown with the controls


class ControlsBodyModel(NamedTuple):
    """The buttons, the offer to show, or the line saying whom the viewer waits for (``controls_body``:
    the sequence and whom, slots)."""

    controls: ActionControls | None
    can_show_cards: bool
    waiting: bool  # the viewer is in the hand, waiting for another's turn


class SeatPanelModel(NamedTuple):
    """The seat panel of a seated viewer (the panel of one without a seat has no model), but
    for its pieces that move with the stack or the hand: they go into slots (``SeatSummaryModel``,
    ``TopUpModel``, what leaving asks to confirm, by whether the viewer is in a running hand, and
    the commitment to the next hand's seed)."""

    table_id: int
    number: int
    state: str
    pending_sit_out: bool
    leave_after_hand: bool
    sit_out_next_big_blind: bool
    auto_top_up_to: int
    min_buy_in: int
    max_buy_in: int
    request_id: str
    note: str  # what the seat's owner should read on it (``Seat.note``)
    allowance: Allowance | None  # RULES 6.5: protected all-ins left


class SeatSummaryModel(NamedTuple):
    """The seat panel's line on the seat: its number, stack and state (``seat_summary``)."""

    number: int
    stack: int
    pending_top_up: int
    state: str
    pending_sit_out: bool
    leave_after_hand: bool


class TopUpModel(NamedTuple):
    """The seat panel's form to add chips (``top_up_form``)."""

    state: str
    top_up_room: int
    holds_cards_in_running_hand: bool
    request_id: str


def hand_log_model(view: TableView, me: ViewerView | None) -> HandLogModel:
    return HandLogModel(
        view.hand.number if view.hand else None, tuple(view.log), me.dealt_line if me is not None else None
    )


def seat_head_model(seat: SeatView) -> SeatHeadModel:
    return SeatHeadModel(seat.number, seat.player, seat.is_viewer, seat.is_turn, seat.folded, bool(seat.won),
                         seat.blind, seat.disconnected)  # fmt: skip


def seat_body_model(seat: SeatView) -> SeatBodyModel:
    return SeatBodyModel(tuple(seat.cards), seat.face_down, seat.hand_category, seat.won, seat.status)


def seat_clock_model(view: TableView, seat: SeatView) -> SeatClockModel:
    return SeatClockModel(view.clock if seat.is_turn else None, seat.time_bank_seconds)


def dealt_model(me: ViewerView) -> DealtModel | None:
    return None if me.dealt_line is None else DealtModel(me.dealt_line)


def felt_board_model(view: TableView) -> FeltBoardModel:
    hand = view.hand
    if hand is None:
        return FeltBoardModel(None)
    return FeltBoardModel(hand.number, hand.is_over, hand.street, tuple(hand.board))


def felt_pot_model(view: TableView) -> FeltPotModel:
    hand = view.hand
    if hand is None:
        return FeltPotModel(False)
    return FeltPotModel(True, hand.is_over, hand.total_pot, tuple(hand.pots))


def seat_extras_model(view: TableView, seat: SeatView) -> SeatExtrasModel:
    dead = seat.is_button and view.hand is not None and view.hand.dead_button
    return SeatExtrasModel(seat.number, seat.player, seat.bet, seat.is_button, dead)


def felt_close_model(view: TableView) -> FeltCloseModel:
    return FeltCloseModel(view.hand.merkle_root if view.hand else "", view.table.next_seed_commitment)


def controls_open_model(view: TableView, me: ViewerView) -> ControlsOpenModel:
    controls = me.controls
    return ControlsOpenModel(
        hand_number=view.hand.number if view.hand else None,
        in_running_hand=me.in_running_hand,
        has_controls=controls is not None,
        can_check=controls is not None and controls.can_check,
        stack_and_bet=(me.own_seat.stack, me.own_seat.bet) if controls is not None and me.own_seat else None,
    )


def controls_body_model(view: TableView, me: ViewerView) -> ControlsBodyModel:
    controls = me.controls
    return ControlsBodyModel(
        controls=None if controls is None else dataclasses.replace(controls, sequence=0),  # a slot in the HTML
        can_show_cards=me.can_show_cards,
        waiting=me.in_running_hand and view.clock is not None,
    )


def seat_panel_model(view: TableView, me: ViewerView, request_id: str) -> SeatPanelModel | None:
    seat = me.seat
    if seat is None:
        return None
    table = view.table
    return SeatPanelModel(
        table_id=table.pk,
        number=seat.number,
        state=seat.state,
        pending_sit_out=seat.pending_sit_out,
        leave_after_hand=seat.leave_after_hand,
        sit_out_next_big_blind=seat.sit_out_next_big_blind,
        auto_top_up_to=seat.auto_top_up_to,
        min_buy_in=table.min_buy_in,
        max_buy_in=table.max_buy_in,
        request_id=request_id,
        note=seat.note,
        allowance=me.allowance,
    )


def seat_summary_model(seat: Seat) -> SeatSummaryModel:
    return SeatSummaryModel(seat.number, seat.stack, seat.pending_top_up, seat.state, seat.pending_sit_out,
                            seat.leave_after_hand)  # fmt: skip


def top_up_model(view: TableView, me: ViewerView, seat: Seat, request_id: str) -> TopUpModel:
    holds_cards = bool(me.my_cards) and view.hand is not None and not view.hand.is_over
    return TopUpModel(seat.state, me.top_up_room, holds_cards, request_id)


class Rendered(NamedTuple):
    model: object
    html: str


# The renderings kept per fragment and audience: the few a fragment comes back to. The
# controls come back to each of a few states as the turn goes round the table (a player waiting
# says whom they wait for); a seat box comes back to the one before its turn (a check), most
# other fragments move on. Every model kept is one more object for the garbage collector to
# walk on each full collection (``operations.gc_pauses``): a server holds thousands of audiences.
RECENT = 3
RECENT_OF = {"controls-body": 8, "controls-open": 8}


class RenderedFragments:
    """What this process rendered lately for each audience: fragment id -> its last few (view
    model, HTML), most recent last, for the most recent ``size`` audiences. A (model, HTML) pair
    is always one rendering of that model."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._by_audience: OrderedDict[str, dict[str, list[Rendered]]] = OrderedDict()
        self._lock = threading.Lock()  # changes are announced from several threads

    def audience(self, name: str) -> dict[str, list[Rendered]]:
        with self._lock:
            found = self._by_audience.pop(name, None)
            if found is None:
                found = {}
            self._by_audience[name] = found
            while len(self._by_audience) > self.size:
                self._by_audience.popitem(last=False)
        return found

    def forget(self, name: str) -> None:
        with self._lock:
            self._by_audience.pop(name, None)


Memo = dict[str, list[Rendered]]


def reuse_or_render(memo: Memo | None, key: str, model: object, render: Callable[[], str]) -> str:
    """The HTML of fragment ``key``: what was rendered for an equal ``model`` lately, else
    ``render()`` (remembered with its model). ``model`` None: rendered every time."""
    if memo is None or model is None:
        return render()
    recent = memo.get(key, [])
    for found in reversed(recent):
        if found.model == model:
            return found.html
    html = render()
    kept = RECENT_OF.get(key, RECENT)
    memo[key] = [*recent[1 - kept :], Rendered(model, html)]  # a new list: another thread may read the old
    return html
