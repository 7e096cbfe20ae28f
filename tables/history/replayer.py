"""A hand's event log as replayer steps: what happened, and the table after it.

Pure functions over the events one viewer may see (see ``access``): a hole
card deal whose ``cards`` are None is another player's and stays hidden; the
cards of a hand shown or turned up become known from that step on. Each
step's text is the event's sentence in ``tables.presentation.wording``; here
each event changes the table (``TABLE_CHANGES``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tables.engine import ActionKind, Street
from tables.engine.events import (
    Became,
    BlindKind,
    BlindPosted,
    CardsShown,
    Event,
    EventType,
    HandMucked,
    HandShown,
    HandStarted,
    HandsTurnedUp,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    StreetDealt,
    TimedOut,
    UncalledBetReturned,
)
from tables.presentation.wording import HandWords, player_names, street_title


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat after a step. ``cards`` is empty while unknown to the viewer."""

    seat: int
    name: str
    stack: int
    bet: int
    cards: tuple[str, ...]
    folded: bool
    all_in: bool
    won: int
    is_button: bool
    is_actor: bool


@dataclass(frozen=True, slots=True)
class Step:
    """One event of the hand as a line of text, and the table right after it.

    ``pot``: every chip in the middle, this round's bets included.
    """

    number: int
    street: Street
    text: str
    board: tuple[str, ...]
    pot: int
    seats: tuple[SeatState, ...]

    @property
    def street_title(self) -> str:
        return street_title(self.street)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How the hand went for one seat: ``won`` is what the pots paid, ``net`` the stack change."""

    seat: int
    name: str
    starting_stack: int
    final_stack: int
    won: int
    net: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Replay:
    """The steps, and the results once the hand has ended (empty before).

    ``dead_button``: the button's seat when nobody was dealt in from it (RULES 2.9), else None;
    no seat of the steps then has ``is_button``.
    """

    steps: tuple[Step, ...]
    results: tuple[SeatResult, ...]
    dead_button: int | None = None


def replay(events: list[Event]) -> Replay:
    """Turn the events (first ``hand_started``) into steps and results."""
    started = events[0]
    assert started["type"] == EventType.HAND_STARTED
    words = HandWords.of(events)
    table = _Table(started)
    steps = []
    for number, event in enumerate(events):
        TABLE_CHANGES[event["type"]](table, event)
        seat = event.get("seat")  # the acting seat, in the events that have one
        steps.append(table.snapshot(number, words.sentence(event), actor=seat if isinstance(seat, int) else None))
    ended = any(event["type"] == EventType.HAND_ENDED for event in events)  # a shown hand follows its end
    results = table.results() if ended else ()
    button = started["button"]
    return Replay(tuple(steps), results, dead_button=None if button in table.seats else button)


@dataclass(slots=True)
class _Seat:
    seat: int
    name: str
    starting_stack: int
    stack: int
    bet: int = 0
    cards: tuple[str, ...] = ()
    folded: bool = False
    all_in: bool = False
    won: int = 0


@dataclass(slots=True)
class _Table:
    """The table as the events so far leave it."""

    started: HandStarted
    seats: dict[int, _Seat] = field(init=False)
    board: tuple[str, ...] = ()
    street: Street = Street.PREFLOP
    collected: int = 0

    def __post_init__(self) -> None:
        names = player_names(self.started)
        self.seats = {
            entry["seat"]: _Seat(entry["seat"], names[entry["seat"]], entry["stack"], entry["stack"])
            for entry in self.started["seats"]
        }

    def snapshot(self, number: int, text: str, actor: int | None) -> Step:
        return Step(
            number=number,
            street=self.street,
            text=text,
            board=self.board,
            pot=self.collected + sum(seat.bet for seat in self.seats.values()),
            seats=tuple(
                SeatState(
                    seat=s.seat,
                    name=s.name,
                    stack=s.stack,
                    bet=s.bet,
                    cards=s.cards,
                    folded=s.folded,
                    all_in=s.all_in,
                    won=s.won,
                    is_button=s.seat == self.started["button"],
                    is_actor=s.seat == actor,
                )
                for s in self.seats.values()
            ),
        )

    def results(self) -> tuple[SeatResult, ...]:
        return tuple(
            SeatResult(s.seat, s.name, s.starting_stack, s.stack, s.won, s.stack - s.starting_stack, s.cards)
            for s in self.seats.values()
        )

    def put_in(self, seat: _Seat, amount: int, all_in: bool) -> None:
        seat.stack -= amount
        seat.bet += amount
        seat.all_in = seat.all_in or all_in

    def collect_bets(self) -> None:
        for seat in self.seats.values():
            self.collected += seat.bet
            seat.bet = 0


# How each event changes the table (events.py); the step's text is its sentence in ``wording``.


def _unchanged(table: _Table, event: Any) -> None:
    pass  # hand_started set the table up; hand_ended changes nothing more


def _blind_posted(table: _Table, event: BlindPosted) -> None:
    seat = table.seats[event["seat"]]
    if event["blind"] == BlindKind.BIG_BLIND_ANTE:
        seat.stack -= event["amount"]
        table.collected += event["amount"]  # dead money, not part of the bet
        seat.all_in = seat.all_in or event["all_in"]
    else:
        table.put_in(seat, event["amount"], event["all_in"])


def _hole_cards_dealt(table: _Table, event: HoleCardsDealt) -> None:
    if event["cards"] is not None:
        table.seats[event["seat"]].cards = tuple(event["cards"])


def _player_acted(table: _Table, event: PlayerActed) -> None:
    seat = table.seats[event["seat"]]
    if event["kind"] == ActionKind.FOLD:
        seat.folded = True
    else:
        table.put_in(seat, event["amount"], event["all_in"])


def _timed_out(table: _Table, event: TimedOut) -> None:
    seat = table.seats[event["seat"]]
    if event["became"] == Became.FOLD:
        seat.folded = True
    else:
        seat.all_in = True


def _uncalled_bet_returned(table: _Table, event: UncalledBetReturned) -> None:
    seat = table.seats[event["seat"]]
    seat.stack += event["amount"]
    seat.bet -= event["amount"]
    seat.all_in = seat.all_in and seat.stack == 0


def _street_dealt(table: _Table, event: StreetDealt) -> None:
    table.collect_bets()
    table.street = event["street"]
    table.board = tuple(event["board"])


def _hands_turned_up(table: _Table, event: HandsTurnedUp) -> None:
    table.collect_bets()
    for hand in event["hands"]:
        table.seats[hand["seat"]].cards = tuple(hand["cards"])


def _hand_shown(table: _Table, event: HandShown) -> None:
    table.collect_bets()
    table.seats[event["seat"]].cards = tuple(event["cards"])


def _cards_shown(table: _Table, event: CardsShown) -> None:
    table.seats[event["seat"]].cards = tuple(event["cards"])


def _hand_mucked(table: _Table, event: HandMucked) -> None:
    table.collect_bets()


def _pot_awarded(table: _Table, event: PotAwarded) -> None:
    table.collect_bets()
    table.collected -= event["amount"]
    for winner in event["winners"]:
        seat = table.seats[winner["seat"]]
        seat.stack += winner["amount"]
        seat.won += winner["amount"]


TABLE_CHANGES: dict[EventType, Callable[[_Table, Any], None]] = {
    EventType.HAND_STARTED: _unchanged,
    EventType.BLIND_POSTED: _blind_posted,
    EventType.HOLE_CARDS_DEALT: _hole_cards_dealt,
    EventType.PLAYER_ACTED: _player_acted,
    EventType.TIMED_OUT: _timed_out,
    EventType.UNCALLED_BET_RETURNED: _uncalled_bet_returned,
    EventType.STREET_DEALT: _street_dealt,
    EventType.HANDS_TURNED_UP: _hands_turned_up,
    EventType.HAND_SHOWN: _hand_shown,
    EventType.HAND_MUCKED: _hand_mucked,
    EventType.POT_AWARDED: _pot_awarded,
    EventType.HAND_ENDED: _unchanged,
    EventType.CARDS_SHOWN: _cards_shown,
}
"""Every event type's change to the table."""
