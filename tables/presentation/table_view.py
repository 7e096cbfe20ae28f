"""Everything the table page shows to one viewer, read from the database and the engine.

The latest hand stays on the table after it ends (board, shown hands,
winners) until the next one starts. Hole cards come only from the engine's
projection for the viewer's own seat in that hand, so a spectator, or the
next player to sit in a seat, never sees a card that was not shown.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from cashier.services import bankroll_balance
from tables.engine import Hand as EngineHand
from tables.engine import events as ev
from tables.engine.projection import view_for, visible_events
from tables.models import Hand, HandPlayer, Seat, Table
from tables.services.hand_log import logged_events, rebuild

from .cards import CardView, card_views
from .controls import ActionControls, action_controls
from .layout import SeatSpot, seat_spots
from .log_lines import LogLine, log_lines

_ENGINE_STATUS_LABELS = {"folded": "Folded", "all_in": "All-in", "protected": "All-in (timed out)"}


@dataclass
class SeatView:
    number: int
    spot: SeatSpot
    player: str | None = None  # None: the seat is free
    player_id: int | None = None
    stack: int | None = None
    is_viewer: bool = False
    status: str = ""
    disconnected: bool = False
    folded: bool = False
    bet: int = 0
    blind: str = ""  # "SB" / "BB"
    is_turn: bool = False
    cards: list[CardView] = field(default_factory=list)  # face up: the viewer's own, or shown
    face_down: int = 0
    hand_category: str = ""
    won: int = 0


@dataclass(frozen=True)
class TurnClock:
    player: str
    remaining_ms: int
    countdown_seconds: int  # RULES 6.1: shown only during this last stretch

    @property
    def counting_down(self) -> bool:
        return self.remaining_ms <= self.countdown_seconds * 1000

    @property
    def seconds_left(self) -> int:
        return max(0, -(-self.remaining_ms // 1000))


@dataclass(frozen=True)
class PotView:
    label: str
    amount: int


@dataclass
class HandView:
    number: int
    is_over: bool
    street: str
    board: list[CardView]
    pots: list[PotView]
    total_pot: int


@dataclass
class TableView:
    table: Table
    seats: list[SeatView]
    logged_in: bool
    viewer_seat: Seat | None  # the viewer's seat row, if seated
    bankroll: int | None  # for a logged-in viewer without a seat: what they can buy in with
    hand: HandView | None = None
    clock: TurnClock | None = None
    my_cards: list[CardView] = field(default_factory=list)
    in_running_hand: bool = False  # the viewer still has cards in a running hand: pre-actions apply
    controls: ActionControls | None = None
    log: list[LogLine] = field(default_factory=list)

    @property
    def free_seats(self) -> list[int]:
        return [seat.number for seat in self.seats if seat.player is None]

    @property
    def top_up_room(self) -> int:
        """Chips the seated viewer may still add before reaching the table maximum."""
        seat = self.viewer_seat
        return 0 if seat is None else max(0, self.table.max_buy_in - seat.stack - seat.pending_top_up)

    @property
    def default_buy_in(self) -> int:
        return min(self.table.max_buy_in, self.bankroll or 0)

    @property
    def can_sit_down(self) -> bool:
        return self.bankroll is not None and self.table.is_active and not self.table.closing and bool(self.free_seats)


def build_table_view(table_id: int, viewer, now: datetime | None = None) -> TableView | None:
    """The page for ``viewer`` (a user, possibly anonymous), or None if there is no such table."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    occupants = {seat.number: seat for seat in Seat.objects.filter(table=table).select_related("player")}
    user_id = viewer.pk if getattr(viewer, "is_authenticated", False) else None
    viewer_seat = next((seat for seat in occupants.values() if seat.player_id == user_id), None)
    spots = seat_spots(table.seat_count, viewer_seat.number if viewer_seat else 1)
    seats = [_seat_view(number, spots[number], occupants.get(number), user_id) for number in spots]
    bankroll = bankroll_balance(viewer) if user_id is not None and viewer_seat is None else None
    view = TableView(
        table=table, seats=seats, logged_in=user_id is not None, viewer_seat=viewer_seat, bankroll=bankroll
    )
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    if hand is not None:
        _add_hand(view, hand, user_id, now or timezone.now())
    return view


def _seat_view(number: int, spot: SeatSpot, seat: Seat | None, user_id: int | None) -> SeatView:
    if seat is None:
        return SeatView(number, spot)
    return SeatView(
        number,
        spot,
        player=seat.player.username,
        player_id=seat.player_id,
        stack=seat.stack,
        is_viewer=seat.player_id == user_id,
        status=_seat_status(seat),
        disconnected=seat.disconnected_at is not None,
    )


def _seat_status(seat: Seat) -> str:
    if seat.pending_sit_out:
        return "Sitting out next hand"
    if seat.state == Seat.State.WAITING_FOR_BIG_BLIND:
        return "Posts a big blind next hand" if seat.posts_big_blind_now else "Waiting for the big blind"
    if seat.state == Seat.State.PLAYING:
        return ""
    return seat.get_state_display()


def _add_hand(view: TableView, hand: Hand, user_id: int | None, now: datetime) -> None:
    """Put the latest hand on the table as the viewer may see it."""
    players = dict(HandPlayer.objects.filter(hand=hand).values_list("seat", "player_id"))
    viewer_hand_seat = next((seat for seat, player in players.items() if player == user_id), None)
    events, engine = _replayed(hand)
    state = view_for(engine, viewer_hand_seat)
    visible = visible_events(events, viewer_hand_seat)
    running = hand.state == Hand.State.RUNNING
    best_five = {e["seat"]: e["best_five"] for e in visible if e["type"] == ev.HAND_SHOWN}
    category = {e["seat"]: e["category"] for e in visible if e["type"] == ev.HAND_SHOWN}
    winnings = _winnings(state["results"])
    winning_cards = {card for seat in winnings for card in best_five.get(seat, ())}

    seats_by_number = {seat.number: seat for seat in view.seats}
    for played in state["seats"]:
        seat = seats_by_number[played["seat"]]
        if players.get(played["seat"]) != seat.player_id:
            continue  # the player has left; whoever sits there now was not in this hand
        seat.folded = played["status"] == "folded"
        seat.bet = played["bet"]
        if running:
            seat.status = _ENGINE_STATUS_LABELS.get(played["status"], seat.status)
        seat.is_turn = state["to_act"] == played["seat"]
        seat.blind = {state["small_blind_seat"]: "SB", state["big_blind_seat"]: "BB"}.get(played["seat"], "")
        if played["cards"]:
            seat.cards = card_views(played["cards"], winning_cards if played["seat"] in winnings else ())
        elif running and not seat.folded:
            seat.face_down = 4  # once the hand is over, unshown cards are mucked
        seat.hand_category = category.get(played["seat"], "")
        seat.won = winnings.get(played["seat"], 0)

    view.hand = HandView(
        number=hand.number,
        is_over=not running,
        street=state["street"],
        board=card_views(state["board"], winning_cards),
        pots=_pots(state),
        total_pot=state["total_pot"] if running else sum(award["amount"] for award in state["results"]),
    )
    for seat in view.seats:
        seat.is_button = seat.number == state["button"]
    if viewer_hand_seat is not None:
        me = next(played for played in state["seats"] if played["seat"] == viewer_hand_seat)
        view.my_cards = card_views(me["cards"] or (), winning_cards if viewer_hand_seat in winnings else ())
        view.in_running_hand = running and me["status"] == "active"
    if running:
        view.controls = action_controls(state, hand.sequence)
        view.clock = _clock(view, hand, now)
    view.log = log_lines(visible)


def _winnings(results: list[dict]) -> dict[int, int]:
    won: dict[int, int] = {}
    for award in results:
        for winner in award["winners"]:
            won[winner["seat"]] = won.get(winner["seat"], 0) + winner["amount"]
    return won


def _pots(state: dict) -> list[PotView]:
    pots = state["pots"]
    if len(pots) < 2:
        return []  # one pot: the total says it all
    return [PotView("Main pot" if k == 0 else f"Side pot {k}", pot["amount"]) for k, pot in enumerate(pots)]


def _clock(view: TableView, hand: Hand, now: datetime) -> TurnClock | None:
    if hand.turn_deadline is None or hand.turn_seat is None:
        return None
    seat = next(seat for seat in view.seats if seat.number == hand.turn_seat)
    remaining = int((hand.turn_deadline - now).total_seconds() * 1000)
    return TurnClock(seat.player or "", max(remaining, 0), view.table.countdown_seconds)


# Every screen of a table shows the same hand state: replay it once per state in this process.
# The log is append-only and every append bumps the hand's sequence, so (hand, sequence) names
# one state for good. Callers only read what is cached here.
_REPLAYS: OrderedDict[tuple[int, int, str], tuple[list[dict], EngineHand]] = OrderedDict()
_REPLAYS_KEPT = 512


def _replayed(hand: Hand) -> tuple[list[dict], EngineHand]:
    key = (hand.pk, hand.sequence, hand.deck_commitment)  # the commitment guards against a reused id
    cached = _REPLAYS.get(key)
    if cached is None:
        events = logged_events(hand)
        cached = _REPLAYS[key] = (events, rebuild(hand, events))
        while len(_REPLAYS) > _REPLAYS_KEPT:
            _REPLAYS.popitem(last=False)
    return cached

