"""A hand's event log as replayer steps: what happened, and the table after it.

Pure functions over the events one viewer may see (see ``access``): a hole
card deal whose ``cards`` are None is another player's and stays hidden; the
cards of a hand shown or turned up become known from that step on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tables.engine import events as ev

from .game import player_names

STREET_TITLES = {"preflop": "Pre-flop", "flop": "Flop", "turn": "Turn", "river": "River"}
BLIND_NAMES = {
    ev.SMALL_BLIND: "the small blind",
    ev.BIG_BLIND: "the big blind",
    ev.EXTRA_BIG_BLIND: "a big blind to come in",
    ev.BIG_BLIND_ANTE: "the big blind ante",
}


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
    street: str
    text: str
    board: tuple[str, ...]
    pot: int
    seats: tuple[SeatState, ...]

    @property
    def street_title(self) -> str:
        return STREET_TITLES[self.street]


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


def replay(events: list[dict]) -> Replay:
    """Turn the events (first ``hand_started``) into steps and results."""
    pot_count = sum(1 for event in events if event["type"] == ev.POT_AWARDED)
    table = _Table(events[0], pot_count)
    steps = []
    for number, event in enumerate(events):
        text = table.apply(event)
        steps.append(table.snapshot(number, text, actor=event.get("seat")))
    results = table.results() if events[-1]["type"] == ev.HAND_ENDED else ()
    button = events[0]["button"]
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

    started: dict
    pot_count: int
    seats: dict[int, _Seat] = field(init=False)
    board: tuple[str, ...] = ()
    street: str = "preflop"
    collected: int = 0

    def __post_init__(self) -> None:
        names = player_names(self.started)
        self.seats = {
            entry["seat"]: _Seat(entry["seat"], names[entry["seat"]], entry["stack"], entry["stack"])
            for entry in self.started["seats"]
        }

    def apply(self, event: dict) -> str:
        """Change the table by one event and say what happened."""
        return getattr(self, f"_on_{event['type']}")(event)

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

    def _name(self, event: dict) -> str:
        return self.seats[event["seat"]].name

    def _put_in(self, seat: _Seat, amount: int, all_in: bool) -> None:
        seat.stack -= amount
        seat.bet += amount
        seat.all_in = seat.all_in or all_in

    def _collect_bets(self) -> None:
        for seat in self.seats.values():
            self.collected += seat.bet
            seat.bet = 0

    # One handler per event type (events.py), each returning the step's text.

    def _on_hand_started(self, event: dict) -> str:
        stakes = f"blinds {event['small_blind']}/{event['big_blind']}"
        if event["big_bet"]:
            stakes += f", bets {event['big_blind']}/{event['big_bet']}"
        # After a departure the button may be dead, or the small blind (RULES 2.9).
        button = self.seats.get(event["button"])
        if button is None:
            dead = f"the button is dead on seat {event['button']} (nobody is dealt in from it)"
            text = f"The hand starts: {dead}; {stakes}."
        else:
            text = f"The hand starts: {button.name} (seat {button.seat}) has the button; {stakes}."
        if event["small_blind_seat"] is None:
            text += " Nobody posts the small blind (dead small blind)."
        return text

    def _on_blind_posted(self, event: dict) -> str:
        seat = self.seats[event["seat"]]
        if event["blind"] == ev.BIG_BLIND_ANTE:
            seat.stack -= event["amount"]
            self.collected += event["amount"]  # dead money, not part of the bet
            seat.all_in = seat.all_in or event["all_in"]
        else:
            self._put_in(seat, event["amount"], event["all_in"])
        return f"{seat.name} posts {BLIND_NAMES[event['blind']]}: {event['amount']}{_all_in(event)}."

    def _on_hole_cards_dealt(self, event: dict) -> str:
        seat = self.seats[event["seat"]]
        if event["cards"] is None:
            return f"{seat.name} is dealt four cards."
        seat.cards = tuple(event["cards"])
        return f"{seat.name} is dealt {_cards(seat.cards)}."

    def _on_player_acted(self, event: dict) -> str:
        seat = self.seats[event["seat"]]
        kind = event["kind"]
        if kind == "fold":
            seat.folded = True
            return f"{seat.name} folds."
        self._put_in(seat, event["amount"], event["all_in"])
        words = {
            "check": "checks",
            "call": f"calls {event['amount']}",
            "bet": f"bets {event['total']}",
            "raise": f"raises to {event['total']}",
        }[kind]
        return f"{seat.name} {words}{_all_in(event)}."

    def _on_timed_out(self, event: dict) -> str:
        seat = self.seats[event["seat"]]
        if event["became"] == ev.BECAME_FOLD:
            seat.folded = True
            return f"{seat.name} ran out of time and is folded."
        seat.all_in = True
        return f"{seat.name} ran out of time and stays in, all-in with the chips already in the pot."

    def _on_uncalled_bet_returned(self, event: dict) -> str:
        seat = self.seats[event["seat"]]
        seat.stack += event["amount"]
        seat.bet -= event["amount"]
        seat.all_in = seat.all_in and seat.stack == 0
        return f"The uncalled {event['amount']} goes back to {seat.name}."

    def _on_street_dealt(self, event: dict) -> str:
        self._collect_bets()
        self.street = event["street"]
        self.board = tuple(event["board"])
        return f"{STREET_TITLES[self.street]}: {_cards(event['cards'])}."

    def _on_hands_turned_up(self, event: dict) -> str:
        self._collect_bets()
        for hand in event["hands"]:
            self.seats[hand["seat"]].cards = tuple(hand["cards"])
        shown = "; ".join(f"{self.seats[hand['seat']].name} {_cards(hand['cards'])}" for hand in event["hands"])
        return f"All-in with no more betting: the hands are turned up ({shown})."

    def _on_hand_shown(self, event: dict) -> str:
        self._collect_bets()
        seat = self.seats[event["seat"]]
        seat.cards = tuple(event["cards"])
        return f"{seat.name} shows {_cards(seat.cards)}: {event['category'].lower()}, {_cards(event['best_five'])}."

    def _on_hand_mucked(self, event: dict) -> str:
        self._collect_bets()
        return f"{self._name(event)} mucks."

    def _on_pot_awarded(self, event: dict) -> str:
        self._collect_bets()
        self.collected -= event["amount"]
        for winner in event["winners"]:
            seat = self.seats[winner["seat"]]
            seat.stack += winner["amount"]
            seat.won += winner["amount"]
        pot = _pot_name(event["pot_index"], self.pot_count)
        shares = ", ".join(f"{self.seats[w['seat']].name} wins {w['amount']}" for w in event["winners"])
        return f"The {pot} ({event['amount']}): {shares}."

    def _on_hand_ended(self, event: dict) -> str:
        changes = ", ".join(f"{s.name} {s.stack - s.starting_stack:+d}" for s in self.seats.values())
        return f"The hand is over: {changes}."


def _pot_name(pot_index: int, pot_count: int) -> str:
    """ "pot" when there is one, else "main pot", "side pot 1", "side pot 2"..."""
    if pot_count == 1:
        return "pot"
    return "main pot" if pot_index == 0 else f"side pot {pot_index}"


def _cards(cards) -> str:
    return "[" + " ".join(cards) + "]"


def _all_in(event: dict) -> str:
    return " and is all-in" if event["all_in"] else ""
