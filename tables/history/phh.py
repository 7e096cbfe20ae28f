"""Hand histories in PHH, the TOML format of the Poker Hand History standard that PokerKit reads.

PHH numbers players p1..pn clockwise from the seat left of the button, the
button last; ``blinds_or_straddles`` lists what each posts (PokerKit swaps
the two entries heads-up, where the button posts the small blind), and a
negative entry is a live "post" by a player coming in out of position
(RULES 2.7). After a departure (RULES 2.9) a dead button is no player: p1..pn
still run from the seat left of it, the last acting last after the flop as the
engine has it; a dead small blind is no entry, so p1 is the big blind and p2
acts first before the flop, which is how PokerKit reads them.

Actions: ``d dh`` deals hole cards (``????????`` for four cards this viewer
does not know), ``d db`` the board, ``f`` fold, ``cc`` check or call, ``cbr``
bet or raise to, ``sm`` show (with cards) or muck (without).

Only Pot Limit hands are written: PHH has no fixed-limit Omaha High variant
(its "FO/8" is hi-lo), so Limit hands are exported as PokerStars text only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC
from typing import Any

from tables.engine import ActionKind, Variant
from tables.engine.events import Became, BlindKind, Event, EventType, HandStarted
from tables.presentation.wording import card_row, player_names

from .access import HandRecord
from .numbering import exported_hand_number, installation_number

POT_LIMIT_OMAHA = "PO"
UNKNOWN_HOLE_CARDS = "????????"
VENUE = "Omaha Room"


class PhhUnavailable(Exception):
    """The hand cannot be written as PHH; the message says why."""


def phh_text(record: HandRecord, installation: int | None = None) -> str:
    """The PHH text of a complete hand; raises ``PhhUnavailable`` for a hand PHH cannot express.
    ``installation``: this room's number (``numbering``), read from the database when not given."""
    started = record.started
    if started["variant"] != Variant.POT_LIMIT:
        raise PhhUnavailable("PHH has no fixed-limit Omaha High variant: export Limit hands as PokerStars text.")
    order = _players_in_phh_order(started)
    player = {seat: f"p{k}" for k, seat in enumerate(order, start=1)}
    stacks = {entry["seat"]: entry["stack"] for entry in started["seats"]}
    names = player_names(started)
    ended = next(event for event in reversed(record.events) if event["type"] == EventType.HAND_ENDED)
    finishing = {entry["seat"]: entry["stack"] for entry in ended["stacks"]}
    hand = record.hand
    when = hand.started_at.astimezone(UTC)
    fields = [
        ("variant", _string(POT_LIMIT_OMAHA)),
        ("ante_trimming_status", "false"),
        ("antes", _list(_antes(started, order))),
        ("blinds_or_straddles", _list(_blinds_or_straddles(record.events, order))),
        ("min_bet", str(started["big_blind"])),
        ("starting_stacks", _list(stacks[seat] for seat in order)),
        ("actions", "[\n" + "".join(f"  {_string(a)},\n" for a in _actions(record.events, player)) + "]"),
        ("venue", _string(VENUE)),
        ("table", _string(hand.table.name)),
        ("hand", str(exported_hand_number(installation_number() if installation is None else installation, hand.pk))),
        ("seat_count", str(hand.table.seat_count)),
        ("seats", _list(order)),
        ("players", _list(_string(names[seat]) for seat in order)),
        ("year", str(when.year)),
        ("month", str(when.month)),
        ("day", str(when.day)),
        ("time", when.strftime("%H:%M:%S")),
        ("time_zone", _string("UTC")),
        ("finishing_stacks", _list(finishing[seat] for seat in order)),
    ]
    if hand.merkle_root:  # user-defined PHH fields start with "_" (docs/fair-dealing.md)
        fields += [("_merkle_root", _string(hand.merkle_root)), ("_seed_commitment", _string(hand.seed_commitment))]
    return "".join(f"{key} = {value}\n" for key, value in fields)


def _players_in_phh_order(started: HandStarted) -> list[int]:
    """Seats clockwise from the one left of the button, the button last."""
    seats = [entry["seat"] for entry in started["seats"]]  # ascending: clockwise from seat 1
    first = next((k for k, seat in enumerate(seats) if seat > started["button"]), 0)
    return seats[first:] + seats[:first]


def _blinds_or_straddles(events: list[Event], order: list[int]) -> list[int]:
    started = events[0]
    assert started["type"] == EventType.HAND_STARTED
    coming_in = {
        e["seat"] for e in events if e["type"] == EventType.BLIND_POSTED and e["blind"] == BlindKind.EXTRA_BIG_BLIND
    }

    def posted_by(seat: int) -> int:
        if seat == started["small_blind_seat"]:
            return started["small_blind"]
        if seat == started["big_blind_seat"]:
            return started["big_blind"]
        return -started["big_blind"] if seat in coming_in else 0

    return _swapped_heads_up([posted_by(seat) for seat in order])


def _antes(started: HandStarted, order: list[int]) -> list[int]:
    return _swapped_heads_up([started["big_blind_ante"] if seat == started["big_blind_seat"] else 0 for seat in order])


def _swapped_heads_up(amounts: list[int]) -> list[int]:
    """PokerKit reads the two entries swapped heads-up, where the button posts the small blind."""
    return amounts[::-1] if len(amounts) == 2 else amounts


def _actions(events: list[Any], player: dict[int, str]) -> list[str]:
    turned_up: set[int] = set()
    actions: list[str] = []
    for event in events:
        actions.extend(PHH_ACTIONS[event["type"]](event, player, turned_up))
    return actions


# Each event's PHH actions: ``(event, player, turned_up)`` -> the action lines. ``player`` maps a
# seat to its PHH name; ``turned_up`` holds the seats whose cards are already shown (all-in).
_PhhAction = Callable[[Any, dict[int, str], set[int]], list[str]]


def _nothing(event: Any, player: dict[int, str], turned_up: set[int]) -> list[str]:
    """Not an action in PHH: the fields say it (the stacks, blinds and antes), or PokerKit works it out
    (an uncalled bet returned, the pots, the end)."""
    return []


def _hole_cards_dealt(event: Any, player: dict[int, str], turned_up: set[int]) -> list[str]:
    cards = UNKNOWN_HOLE_CARDS if event["cards"] is None else card_row(event["cards"], separator="")
    return [f"d dh {player[event['seat']]} {cards}"]


def _street_dealt(event: Any, player: dict[int, str], turned_up: set[int]) -> list[str]:
    return [f"d db {card_row(event['cards'], separator='')}"]


def _player_acted(event: Any, player: dict[int, str], turned_up: set[int]) -> list[str]:
    return [f"{player[event['seat']]} {_betting_word(event)}"]


def _timed_out(event: Any, player: dict[int, str], turned_up: set[int]) -> list[str]:
    if event["became"] != Became.FOLD:
        raise PhhUnavailable(
            "A player ran out of time with chips in the pot and stayed in all-in (RULES 6.2): "
            "PHH cannot express that. Export this hand as PokerStars text."
        )
    return [f"{player[event['seat']]} f"]


def _hands_turned_up(event: Any, player: dict[int, str], turned_up: set[int]) -> list[str]:
    turned_up.update(shown["seat"] for shown in event["hands"])
    return [f"{player[shown['seat']]} sm {card_row(shown['cards'], separator='')}" for shown in event["hands"]]


def _hand_shown(event: Any, player: dict[int, str], turned_up: set[int]) -> list[str]:
    if event["seat"] in turned_up:
        return []  # shown already, when the hands were turned up
    return [f"{player[event['seat']]} sm {card_row(event['cards'], separator='')}"]


def _hand_mucked(event: Any, player: dict[int, str], turned_up: set[int]) -> list[str]:
    return [f"{player[event['seat']]} sm"]


PHH_ACTIONS: dict[EventType, _PhhAction] = {
    EventType.HAND_STARTED: _nothing,
    EventType.BLIND_POSTED: _nothing,
    EventType.HOLE_CARDS_DEALT: _hole_cards_dealt,
    EventType.PLAYER_ACTED: _player_acted,
    EventType.TIMED_OUT: _timed_out,
    EventType.UNCALLED_BET_RETURNED: _nothing,
    EventType.STREET_DEALT: _street_dealt,
    EventType.HANDS_TURNED_UP: _hands_turned_up,
    EventType.HAND_SHOWN: _hand_shown,
    EventType.HAND_MUCKED: _hand_mucked,
    EventType.POT_AWARDED: _nothing,
    EventType.HAND_ENDED: _nothing,
    EventType.CARDS_SHOWN: _nothing,  # shown after the hand, by choice: PHH records no such action
}
"""Every event type's PHH actions (``_nothing``: none)."""


def _betting_word(event: Any) -> str:
    kind = event["kind"]
    if kind == ActionKind.FOLD:
        return "f"
    if kind in (ActionKind.CHECK, ActionKind.CALL):
        return "cc"
    return f"cbr {event['total']}"


def _string(value: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped, the rest as is."""
    escaped = []
    for char in value:
        if char in '"\\':
            escaped.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def _list(values: Iterable[object]) -> str:
    return "[" + ", ".join(str(value) for value in values) + "]"
