"""What everyone at a table sees: the same for every screen at one version.

The latest hand stays on the table after it ends (board, shown hands,
winners) until the next one starts. Hole cards here are only those shown at
showdown or turned up all-in: the engine's projection for a spectator.
What one viewer sees besides (their cards, controls and seat) is in
``viewer_view``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext, gettext_noop

from tables.engine import PlayerStatus
from tables.engine.events import Event, EventType
from tables.engine.projection import visible_events
from tables.models import Hand, Seat, Table
from tables.selectors.table_state import TableState

from .cards import CardView, card_views
from .log_lines import LogLine, log_lines
from .wording import five_in_words, street_title

_DEALT = EventType.HOLE_CARDS_DEALT
_ENGINE_STATUS_LABELS = {
    PlayerStatus.FOLDED: gettext_noop("Folded"),
    PlayerStatus.ALL_IN: gettext_noop("All-in"),
    PlayerStatus.PROTECTED: gettext_noop("All-in (timed out)"),
}


@dataclass
class SeatView:
    number: int
    player: str | None = None  # None: the seat is free
    player_id: int | None = None
    stack: int | None = None
    is_viewer: bool = False
    status: str = ""
    disconnected: bool = False
    folded: bool = False
    in_hand: bool = False  # dealt into the latest hand
    bet: int = 0
    blind: str = ""  # "SB" / "BB"
    is_turn: bool = False
    is_button: bool = False
    cards: list[CardView] = field(default_factory=list)  # face up: shown (or, for its owner, their own)
    face_down: int = 0
    hand_category: str = ""  # the shown hand in words
    won: int = 0
    time_bank_seconds: int | None = None  # None: the table has no time bank


@dataclass(frozen=True)
class TurnClock:
    player: str
    remaining_ms: int
    countdown_seconds: int  # RULES 6.1: shown only during this last stretch
    in_time_bank: bool = False  # the turn's time ran out: this is the player's time bank, shown whole

    @property
    def counting_down(self) -> bool:
        return self.in_time_bank or self.remaining_ms <= self.countdown_seconds * 1000

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
    winning_cards: set[str]  # the cards of the winners' best fives, highlighted wherever shown
    dead_button: bool = False  # the button is on a seat nobody was dealt in from (RULES 2.9)
    merkle_root: str = ""  # the hand's card commitments, published at the deal

    @property
    def street_title(self) -> str:
        """ "Flop", in the active language."""
        return street_title(self.street)


@dataclass
class TableView:
    table: Table
    seats: list[SeatView]
    hand: HandView | None = None
    clock: TurnClock | None = None
    log: list[LogLine] = field(default_factory=list)
    waiting: tuple[tuple[int, datetime | None], ...] = ()  # (player id, offered until) in line order
    now: datetime | None = None

    def offers_to_others(self, user_id: int | None) -> int:
        now = self.now
        assert now is not None  # set by public_view
        return sum(1 for player, until in self.waiting if until is not None and until > now and player != user_id)

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def free_seats(self) -> list[int]:
        return [seat.number for seat in self.seats if seat.player is None]

    @property
    def seats_open(self) -> bool:
        """A free seat can be taken (by someone logged in without one)."""
        return self.table.is_active and not self.table.closing and bool(self.free_seats)


def public_view(state: TableState, now: datetime) -> TableView:
    table = state.table
    seats = [_seat_view(number, state.seats.get(number), table) for number in range(1, table.seat_count + 1)]
    waiting = tuple((entry.player_id, entry.offered_until) for entry in state.waiting_list)
    view = TableView(table=table, seats=seats, waiting=waiting, now=now)
    if state.hand is not None:
        _add_hand(view, state, now)
    return view


def _seat_view(number: int, seat: Seat | None, table: Table) -> SeatView:
    if seat is None:
        return SeatView(number)
    bank = seat.time_bank_ms // 1000 if table.has_time_bank else None
    return SeatView(
        number,
        player=seat.player.username,
        player_id=seat.player_id,
        stack=seat.stack,
        status=_seat_status(seat),
        disconnected=seat.disconnected_at is not None,
        time_bank_seconds=bank,
    )


def _seat_status(seat: Seat) -> str:
    if seat.pending_sit_out:
        return gettext("Sitting out next hand")
    if seat.state == Seat.State.WAITING_FOR_BIG_BLIND:
        return (
            gettext("Posts one big blind to come in")
            if seat.posts_big_blind_now
            else gettext("Waiting for the big blind")
        )
    if seat.state == Seat.State.PLAYING:
        return ""
    return seat.state_label


def _add_hand(view: TableView, state: TableState, now: datetime) -> None:
    """Put the latest hand on the table as a spectator may see it."""
    hand, views, players = state.hand, state.views, state.hand_players
    assert hand is not None and views is not None  # the caller's check: there is a hand, replayed
    projection = views.of(None)
    running = hand.state == Hand.State.RUNNING
    shown = [e for e in state.events if e["type"] == EventType.HAND_SHOWN]
    best_five = {e["seat"]: e["best_five"] for e in shown}
    category = {e["seat"]: five_in_words(e["best_five"]) for e in shown}
    winnings = _winnings(projection["results"])
    winning_cards = {card for seat in winnings for card in best_five.get(seat, ())}

    seats_by_number = {seat.number: seat for seat in view.seats}
    for played in projection["seats"]:
        seat = seats_by_number[played["seat"]]
        if players.get(played["seat"]) != seat.player_id:
            continue  # the player has left; whoever sits there now was not in this hand
        seat.in_hand = True
        seat.folded = played["status"] == PlayerStatus.FOLDED
        seat.bet = played["bet"]
        if running:
            label = _ENGINE_STATUS_LABELS.get(played["status"])
            seat.status = gettext(label) if label else seat.status
        seat.is_turn = projection["to_act"] == played["seat"]
        seat.blind = {projection["small_blind_seat"]: "SB", projection["big_blind_seat"]: "BB"}.get(played["seat"], "")
        if played["cards"]:
            seat.cards = card_views(played["cards"], winning_cards if played["seat"] in winnings else ())
        elif running and not seat.folded:
            seat.face_down = 4  # once the hand is over, unshown cards are mucked
        seat.hand_category = category.get(played["seat"], "")  # in words, in the active language
        seat.won = winnings.get(played["seat"], 0)
    for seat in view.seats:  # a dead button too: it is drawn at its seat's spot, empty or not
        seat.is_button = seat.number == projection["button"]

    view.hand = HandView(
        number=hand.number,
        is_over=not running,
        street=projection["street"],
        board=card_views(projection["board"], winning_cards),
        pots=_pots(projection),
        total_pot=projection["total_pot"] if running else sum(award["amount"] for award in projection["results"]),
        winning_cards=winning_cards,
        dead_button=all(played["seat"] != projection["button"] for played in projection["seats"]),
        merkle_root=hand.merkle_root,
    )
    if running:
        view.clock = _clock(view, hand, now)
    view.log = log_lines(_public_events(state.events), dealt_slot=True)


# A spectator's copy of each deal event (``visible_events`` hides its cards), kept while the
# event is: a held hand's log is the same event objects from one action to the next, so the
# copies are too, and their lines are worded once (``log_lines``). Keyed by the event object
# (held in the entry, so its id is not reused while the entry lives).
_hidden: dict[int, tuple[Event, Event]] = {}
HIDDEN_KEPT = 20_000


def _public_events(events: list[Event]) -> list[Event]:
    public = []
    for event in events:
        if event["type"] == _DEALT:
            found = _hidden.get(id(event))
            if found is None or found[0] is not event:
                if len(_hidden) >= HIDDEN_KEPT:
                    _hidden.clear()
                found = _hidden[id(event)] = (event, visible_events((event,), None)[0])
            event = found[1]
        public.append(event)
    return public


def _winnings(results: list[dict[str, Any]]) -> dict[int, int]:
    won: dict[int, int] = {}
    for award in results:
        for winner in award["winners"]:
            won[winner["seat"]] = won.get(winner["seat"], 0) + winner["amount"]
    return won


def _pots(projection: dict[str, Any]) -> list[PotView]:
    pots = projection["pots"]
    if len(pots) < 2:
        return []  # one pot: the total says it all
    return [
        PotView(gettext("Main pot") if k == 0 else gettext("Side pot %(index)s") % {"index": k}, pot["amount"])
        for k, pot in enumerate(pots)
    ]


def _clock(view: TableView, hand: Hand, now: datetime) -> TurnClock | None:
    if hand.turn_deadline is None or hand.turn_seat is None:
        return None
    seat = next(seat for seat in view.seats if seat.number == hand.turn_seat)
    remaining = int((hand.turn_deadline - now).total_seconds() * 1000)
    in_bank = hand.time_bank_started_at is not None
    return TurnClock(seat.player or "", max(remaining, 0), view.table.countdown_seconds, in_bank)
