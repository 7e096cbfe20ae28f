"""Hand histories as PokerStars-style text, the format most poker tools read.

Written from the events one viewer may see (``access.HandRecord``): "Dealt
to" lines only for the hole cards the viewer knows, other players' cards
only when shown. Play money: amounts are plain chip counts, times are UTC.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC

from tables.engine import Variant
from tables.engine import events as ev

from .access import HandRecord
from .game import player_names, stakes_label

GAME_NAMES = {Variant.LIMIT.value: "Omaha Limit", Variant.POT_LIMIT.value: "Omaha Pot Limit"}
BLIND_LINES = {
    ev.SMALL_BLIND: "posts small blind",
    ev.BIG_BLIND: "posts big blind",
    ev.EXTRA_BIG_BLIND: "posts big blind",
    ev.BIG_BLIND_ANTE: "posts the ante",
}
STREET_HEADERS = {"flop": "FLOP", "turn": "TURN", "river": "RIVER"}
FOLDED_ON = {"preflop": "before Flop", "flop": "on the Flop", "turn": "on the Turn", "river": "on the River"}
# PokerStars separates the hands of a file by blank lines.
HAND_SEPARATOR = "\n\n\n"


def pokerstars_texts(records: Iterable[HandRecord]) -> str:
    return HAND_SEPARATOR.join(pokerstars_text(record) for record in records)


def pokerstars_text(record: HandRecord) -> str:
    started, hand = record.events[0], record.hand
    writer = _Writer(started, pot_count=sum(1 for event in record.events if event["type"] == ev.POT_AWARDED))
    for event in record.events:
        getattr(writer, f"_on_{event['type']}")(event)
    when = hand.started_at.astimezone(UTC).strftime("%Y/%m/%d %H:%M:%S")
    header = [
        f"PokerStars Hand #{hand.pk}:  {GAME_NAMES[started['variant']]} ({stakes_label(started)}) - {when} UTC",
        f"Table '{hand.table.name}' {hand.table.seat_count}-max (Play Money) Seat #{started['button']} is the button",
    ]
    return "\n".join(header + writer.lines + writer.summary()) + "\n"


@dataclass(slots=True)
class _Player:
    name: str
    position: str = ""
    put_in: int = 0
    folded_on: str | None = None
    cards: str | None = None
    shown_as: str | None = None
    won: int = 0


class _Writer:
    """Turns events into the body lines, remembering what the summary needs."""

    def __init__(self, started: dict, pot_count: int) -> None:
        self.players = {seat: _Player(name) for seat, name in player_names(started).items()}
        self.lines = [
            f"Seat {entry['seat']}: {self.players[entry['seat']].name} ({entry['stack']} in chips)"
            for entry in started["seats"]
        ]
        # As PokerStars writes them after a departure (RULES 2.9): a dead button is only the header's
        # "Seat #N is the button", on a seat with no line of its own; a dead small blind has no post.
        for seat, label in (
            (started["button"], "(button)"),
            (started["small_blind_seat"], "(small blind)"),
            (started["big_blind_seat"], "(big blind)"),
        ):
            if seat in self.players:
                self.players[seat].position += f" {label}"
        self.pot_names = _pot_names(pot_count)
        self.pots: list[int] = []
        self.street = "preflop"
        self.high_bet = started["big_blind"]  # pre-flop the big blind is the bet to call or raise
        self.board: list[str] = []
        self.in_showdown = False

    def _say(self, event: dict, text: str) -> None:
        self.lines.append(f"{self.players[event['seat']].name}: {text}{_all_in(event)}")

    # One handler per event type (events.py).

    def _on_hand_started(self, event: dict) -> None:
        pass  # written as the header and the seat lines

    def _on_blind_posted(self, event: dict) -> None:
        self.players[event["seat"]].put_in += event["amount"]
        self._say(event, f"{BLIND_LINES[event['blind']]} {event['amount']}")

    def _on_hole_cards_dealt(self, event: dict) -> None:
        if "*** HOLE CARDS ***" not in self.lines:
            self.lines.append("*** HOLE CARDS ***")
        if event["cards"] is not None:
            player = self.players[event["seat"]]
            player.cards = _cards(event["cards"])
            self.lines.append(f"Dealt to {player.name} {player.cards}")

    def _on_player_acted(self, event: dict) -> None:
        kind, total = event["kind"], event["total"]
        self.players[event["seat"]].put_in += event["amount"]
        if kind == "fold":
            self.players[event["seat"]].folded_on = self.street
            self._say(event, "folds")
        elif kind == "raise":
            self._say(event, f"raises {total - self.high_bet} to {total}")
            self.high_bet = total
        else:
            self.high_bet = max(self.high_bet, total)
            self._say(event, {"check": "checks", "call": f"calls {event['amount']}", "bet": f"bets {total}"}[kind])

    def _on_timed_out(self, event: dict) -> None:
        player = self.players[event["seat"]]
        self.lines.append(f"{player.name} has timed out")
        if event["became"] == ev.BECAME_FOLD:
            player.folded_on = self.street
            self.lines.append(f"{player.name}: folds")
        else:
            self.lines.append(f"{player.name} is all-in with the chips already in the pot")

    def _on_uncalled_bet_returned(self, event: dict) -> None:
        self.lines.append(f"Uncalled bet ({event['amount']}) returned to {self.players[event['seat']].name}")

    def _on_street_dealt(self, event: dict) -> None:
        self.street = event["street"]
        self.high_bet = 0
        before = f"{_cards(self.board)} " if self.board else ""
        self.board = event["board"]
        self.lines.append(f"*** {STREET_HEADERS[self.street]} *** {before}{_cards(event['cards'])}")

    def _on_hands_turned_up(self, event: dict) -> None:
        pass  # PokerStars shows these hands at the showdown, where the engine shows them again

    def _on_hand_shown(self, event: dict) -> None:
        self._open_showdown()
        player = self.players[event["seat"]]
        player.cards = _cards(event["cards"])
        player.shown_as = f"{event['category'].lower()}, {' '.join(event['best_five'])}"
        self.lines.append(f"{player.name}: shows {player.cards} ({player.shown_as})")

    def _on_hand_mucked(self, event: dict) -> None:
        self._open_showdown()
        self.lines.append(f"{self.players[event['seat']].name}: mucks hand")

    def _open_showdown(self) -> None:
        if not self.in_showdown:
            self.in_showdown = True
            self.lines.append("*** SHOW DOWN ***")

    def _on_pot_awarded(self, event: dict) -> None:
        self.pots.append(event["amount"])
        for winner in event["winners"]:
            player = self.players[winner["seat"]]
            player.won += winner["amount"]
            self.lines.append(f"{player.name} collected {winner['amount']} from {self.pot_names[event['pot_index']]}")

    def _on_hand_ended(self, event: dict) -> None:
        pass  # the summary follows

    def summary(self) -> list[str]:
        total = f"Total pot {sum(self.pots)}"
        if len(self.pots) > 1:
            total += "".join(f" {self.pot_names[k].capitalize()} {amount}." for k, amount in enumerate(self.pots))
        lines = ["*** SUMMARY ***", f"{total} | Rake 0"]
        if self.board:
            lines.append(f"Board {_cards(self.board)}")
        for seat, player in self.players.items():
            lines.append(f"Seat {seat}: {player.name}{player.position} {_outcome(player)}")
        return lines


def _outcome(player: _Player) -> str:
    if player.folded_on is not None:
        didnt_bet = " (didn't bet)" if player.folded_on == "preflop" and not player.put_in else ""
        return f"folded {FOLDED_ON[player.folded_on]}{didnt_bet}"
    if player.shown_as is not None:
        result = f"won ({player.won})" if player.won else "lost"
        return f"showed {player.cards} and {result} with {player.shown_as}"
    if player.won:
        return f"collected ({player.won})"
    return "mucked" + (f" {player.cards}" if player.cards else "")


def _pot_names(pot_count: int) -> list[str]:
    """PokerStars' names: "pot" alone; else "main pot", then "side pot" or "side pot-1", "side pot-2"..."""
    if pot_count <= 1:
        return ["pot"]
    if pot_count == 2:
        return ["main pot", "side pot"]
    return ["main pot", *(f"side pot-{k}" for k in range(1, pot_count))]


def _cards(cards) -> str:
    return "[" + " ".join(cards) + "]"


def _all_in(event: dict) -> str:
    return " and is all-in" if event.get("all_in") else ""
