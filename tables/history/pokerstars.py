"""Hand histories as PokerStars-style text, the format most poker tools read.

Written from the events one viewer may see (``access.HandRecord``): "Dealt
to" lines only for the hole cards the viewer knows, other players' cards
only when shown. Play money: amounts are plain chip counts. The line for line
format, and the few places where the room has no PokerStars equivalent, are in
``tables/history/README.md``.

- Times: PokerStars writes the player's own zone, then Eastern time in
  brackets; trackers read the last time and take it as ET, so the room writes
  UTC then ET (``America/New_York``, summer time included).
- Hand numbers: ``numbering.exported_hand_number``, unique per installation.
- A protected all-in (RULES 6.2): the player's last line that put chips in is
  marked "and is all-in", PokerStars' own mark, which is how a tracker learns
  the player is all-in; "X has timed out" follows where the clock ran out.
  The live log keeps the room's own wording.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from tables.engine import ActionKind, Street, Variant
from tables.engine.events import Became, BlindKind, EventType
from tables.models import Hand
from tables.presentation.wording import ALL_IN_CLAUSE, STREET_TITLES, all_in_clause, bracketed_cards, player_names

from .access import HISTORY_BATCH, HandRecord, batched
from .game import stakes_label
from .hand_names import pokerstars_hand_name
from .numbering import exported_hand_number, installation_number
from .pokerstars_tournament import finish_lines, tournament_header
from .tournament_facts import TournamentHand, tournament_facts

GAME_NAMES = {Variant.LIMIT: "Omaha Limit", Variant.POT_LIMIT: "Omaha Pot Limit"}
BLIND_LINES = {
    BlindKind.SMALL_BLIND: "posts small blind",
    BlindKind.BIG_BLIND: "posts big blind",
    BlindKind.EXTRA_BIG_BLIND: "posts big blind",
    BlindKind.BIG_BLIND_ANTE: "posts the ante",
}
# PokerStars' street headers ("*** FLOP ***") and where a player folded ("folded on the Turn").
STREET_HEADERS = {street: STREET_TITLES[street].upper() for street in (Street.FLOP, Street.TURN, Street.RIVER)}
FOLDED_ON = {street: f"on the {STREET_TITLES[street]}" for street in Street} | {Street.PREFLOP: "before Flop"}
# PokerStars separates the hands of a file by blank lines.
HAND_SEPARATOR = "\n\n\n"
EASTERN = ZoneInfo("America/New_York")


def pokerstars_texts(records: Iterable[HandRecord], installation: int | None = None) -> str:
    return "".join(pokerstars_stream(records, installation))


def pokerstars_stream(records: Iterable[HandRecord], installation: int | None = None) -> Iterable[str]:
    """The hands one after the other, each a piece of text, as a file of them is written; the
    tournament hands' facts are read a batch of hands at a time."""
    installation = installation_number() if installation is None else installation
    first = True
    for batch in batched(records, HISTORY_BATCH):
        facts = tournament_facts([record.hand for record in batch])
        for record in batch:
            yield ("" if first else HAND_SEPARATOR) + _text(record, installation, facts.get(record.hand.pk))
            first = False


def pokerstars_text(record: HandRecord, installation: int | None = None) -> str:
    """``installation``: this room's number (``numbering``), read from the database when not given."""
    installation = installation_number() if installation is None else installation
    return _text(record, installation, tournament_facts([record.hand]).get(record.hand.pk))


def _text(record: HandRecord, installation: int, tournament: TournamentHand | None) -> str:
    """A tournament hand (``tournament``: its facts) as PokerStars writes one: ``pokerstars_tournament``."""
    started, hand = record.started, record.hand
    pot_awarded = EventType.POT_AWARDED
    writer = _Writer(started, pot_count=sum(1 for event in record.events if event["type"] == pot_awarded))
    for event in record.events:
        LINE_WRITERS[event["type"]](writer, event)
    number = exported_hand_number(installation, hand.pk)
    game, stakes, when = GAME_NAMES[started["variant"]], stakes_label(started), pokerstars_time(hand.started_at)
    seats, button = f"{hand.table.seat_count}-max", f"Seat #{started['button']} is the button"
    if tournament is None:
        header = [
            f"PokerStars Hand #{number}:  {game} ({stakes}) - {when}",
            f"Table '{hand.table.name}' {seats} (Play Money) {button}",
        ]
        finished = []
    else:
        header = tournament_header(number, installation, tournament, game, stakes, when, f"{seats} {button}")
        finished = finish_lines(tournament, {seat: player.name for seat, player in writer.players.items()})
    return "\n".join(header + writer.lines + finished + writer.summary() + _fair_deal(hand)) + "\n"


def _fair_deal(hand: Hand) -> list[str]:
    """The hand's published commitments (docs/fair-dealing.md): its proof file checks against them."""
    if not hand.merkle_root:
        return []
    return [f"Fair deal: Merkle root {hand.merkle_root}, server seed commitment {hand.seed_commitment}"]


def pokerstars_time(moment: datetime) -> str:
    """ "2026/07/03 12:46:30 UTC [2026/07/03 8:46:30 ET]": as PokerStars writes a time, the local time
    then Eastern time (its hour unpadded), which trackers read."""
    utc, eastern = moment.astimezone(UTC), moment.astimezone(EASTERN)
    return f"{utc:%Y/%m/%d %H:%M:%S} UTC [{eastern:%Y/%m/%d} {eastern.hour}:{eastern:%M:%S} ET]"


@dataclass(slots=True)
class _Player:
    name: str
    position: str = ""
    put_in: int = 0
    folded_on: Street | None = None
    cards: str | None = None
    shown_as: str | None = None
    won: int = 0
    wager_line: int | None = None  # the index of the player's last line that put chips in


class _Writer:
    """Turns events into the body lines, remembering what the summary needs."""

    def __init__(self, started: Any, pot_count: int) -> None:
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
        self.street = Street.PREFLOP
        self.high_bet = started["big_blind"]  # pre-flop the big blind is the bet to call or raise
        self.board: list[str] = []
        self.in_showdown = False
        self.collections: list[tuple[int, str]] = []  # (pot index, "X collected N from pot"), written at the end

    def _say(self, event: Any, text: str) -> None:
        self.lines.append(f"{self.players[event['seat']].name}: {text}{all_in_clause(event)}")

    def _wagered(self, seat: int) -> None:
        self.players[seat].wager_line = len(self.lines) - 1

    # One handler per event type (events.py), listed in LINE_WRITERS below.

    def _on_hand_started(self, event: Any) -> None:
        pass  # written as the header and the seat lines

    def _on_blind_posted(self, event: Any) -> None:
        self.players[event["seat"]].put_in += event["amount"]
        self._say(event, f"{BLIND_LINES[event['blind']]} {event['amount']}")
        self._wagered(event["seat"])

    def _on_hole_cards_dealt(self, event: Any) -> None:
        if "*** HOLE CARDS ***" not in self.lines:
            self.lines.append("*** HOLE CARDS ***")
        if event["cards"] is not None:
            player = self.players[event["seat"]]
            player.cards = bracketed_cards(event["cards"])
            self.lines.append(f"Dealt to {player.name} {player.cards}")

    def _on_player_acted(self, event: Any) -> None:
        kind, total = event["kind"], event["total"]
        self.players[event["seat"]].put_in += event["amount"]
        if kind == ActionKind.FOLD:
            self.players[event["seat"]].folded_on = self.street
            self._say(event, "folds")
        elif kind == ActionKind.RAISE:
            self._say(event, f"raises {total - self.high_bet} to {total}")
            self.high_bet = total
        else:
            self.high_bet = max(self.high_bet, total)
            words = {
                ActionKind.CHECK: "checks",
                ActionKind.CALL: f"calls {event['amount']}",
                ActionKind.BET: f"bets {total}",
            }
            self._say(event, words[kind])
        if event["amount"]:
            self._wagered(event["seat"])

    def _on_timed_out(self, event: Any) -> None:
        player = self.players[event["seat"]]
        self.lines.append(f"{player.name} has timed out")
        if event["became"] == Became.FOLD:
            player.folded_on = self.street
            self.lines.append(f"{player.name}: folds")
        elif player.wager_line is not None and not self.lines[player.wager_line].endswith(ALL_IN_CLAUSE):
            # RULES 6.2: all-in at what they have put in, which PokerStars marks on the line that put it in.
            self.lines[player.wager_line] += ALL_IN_CLAUSE

    def _on_uncalled_bet_returned(self, event: Any) -> None:
        self.lines.append(f"Uncalled bet ({event['amount']}) returned to {self.players[event['seat']].name}")

    def _on_street_dealt(self, event: Any) -> None:
        self.street = event["street"]
        self.high_bet = 0
        before = f"{bracketed_cards(self.board)} " if self.board else ""
        self.board = event["board"]
        self.lines.append(f"*** {STREET_HEADERS[self.street]} *** {before}{bracketed_cards(event['cards'])}")

    def _on_hands_turned_up(self, event: Any) -> None:
        pass  # PokerStars shows these hands at the showdown, where the engine shows them again

    def _on_hand_shown(self, event: Any) -> None:
        self._open_showdown()
        player = self.players[event["seat"]]
        player.cards = bracketed_cards(event["cards"])
        player.shown_as = pokerstars_hand_name(event["category"], event["best_five"])
        self.lines.append(f"{player.name}: shows {player.cards} ({player.shown_as})")

    def _on_cards_shown(self, event: Any) -> None:
        """After the hand, by choice; the summary already says who collected."""
        player = self.players[event["seat"]]
        self.lines.append(f"{player.name}: shows {bracketed_cards(event['cards'])}")

    def _on_hand_mucked(self, event: Any) -> None:
        self._open_showdown()
        self.lines.append(f"{self.players[event['seat']].name}: mucks hand")

    def _open_showdown(self) -> None:
        if not self.in_showdown:
            self.in_showdown = True
            self.lines.append("*** SHOW DOWN ***")

    def _on_pot_awarded(self, event: Any) -> None:
        self.pots.append(event["amount"])
        pot = self.pot_names[event["pot_index"]]
        for winner in event["winners"]:
            player = self.players[winner["seat"]]
            player.won += winner["amount"]
            self.collections.append((event["pot_index"], f"{player.name} collected {winner['amount']} from {pot}"))

    def _on_hand_ended(self, event: Any) -> None:
        """PokerStars pays the side pots first, the last one first, and the main pot last; a player who
        wins without a showdown "doesn't show hand"."""
        self.lines += [line for _, line in sorted(self.collections, key=lambda pot_line: -pot_line[0])]
        if not self.in_showdown:
            self.lines += [f"{player.name}: doesn't show hand" for player in self.players.values() if player.won]

    def summary(self) -> list[str]:
        total = f"Total pot {sum(self.pots)}"
        if len(self.pots) > 1:
            total += "".join(f" {self.pot_names[k].capitalize()} {amount}." for k, amount in enumerate(self.pots))
        lines = ["*** SUMMARY ***", f"{total} | Rake 0"]
        if self.board:
            lines.append(f"Board {bracketed_cards(self.board)}")
        for seat, player in self.players.items():
            lines.append(f"Seat {seat}: {player.name}{player.position} {_outcome(player)}")
        return lines


LINE_WRITERS: dict[EventType, Callable[[_Writer, Any], None]] = {
    EventType.HAND_STARTED: _Writer._on_hand_started,
    EventType.BLIND_POSTED: _Writer._on_blind_posted,
    EventType.HOLE_CARDS_DEALT: _Writer._on_hole_cards_dealt,
    EventType.PLAYER_ACTED: _Writer._on_player_acted,
    EventType.TIMED_OUT: _Writer._on_timed_out,
    EventType.UNCALLED_BET_RETURNED: _Writer._on_uncalled_bet_returned,
    EventType.STREET_DEALT: _Writer._on_street_dealt,
    EventType.HANDS_TURNED_UP: _Writer._on_hands_turned_up,
    EventType.HAND_SHOWN: _Writer._on_hand_shown,
    EventType.HAND_MUCKED: _Writer._on_hand_mucked,
    EventType.POT_AWARDED: _Writer._on_pot_awarded,
    EventType.HAND_ENDED: _Writer._on_hand_ended,
    EventType.CARDS_SHOWN: _Writer._on_cards_shown,
}
"""Every event type's PokerStars lines (some write none: see each handler)."""


def _outcome(player: _Player) -> str:
    if player.folded_on is not None:
        didnt_bet = " (didn't bet)" if player.folded_on == Street.PREFLOP and not player.put_in else ""
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
