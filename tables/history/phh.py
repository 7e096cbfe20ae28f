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

from datetime import UTC

from tables.engine import Variant
from tables.engine import events as ev

from .access import HandRecord
from .game import player_names

POT_LIMIT_OMAHA = "PO"
UNKNOWN_HOLE_CARDS = "????????"
VENUE = "Omaha Room"


class PhhUnavailable(Exception):
    """The hand cannot be written as PHH; the message says why."""


def phh_text(record: HandRecord) -> str:
    """The PHH text of a complete hand; raises ``PhhUnavailable`` for a hand PHH cannot express."""
    started = record.events[0]
    if started["variant"] != Variant.POT_LIMIT.value:
        raise PhhUnavailable("PHH has no fixed-limit Omaha High variant: export Limit hands as PokerStars text.")
    order = _players_in_phh_order(started)
    player = {seat: f"p{k}" for k, seat in enumerate(order, start=1)}
    stacks = {entry["seat"]: entry["stack"] for entry in started["seats"]}
    names = player_names(started)
    finishing = {entry["seat"]: entry["stack"] for entry in record.events[-1]["stacks"]}  # hand_ended
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
        ("hand", str(hand.pk)),
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
    return "".join(f"{key} = {value}\n" for key, value in fields)


def _players_in_phh_order(started: dict) -> list[int]:
    """Seats clockwise from the one left of the button, the button last."""
    seats = [entry["seat"] for entry in started["seats"]]  # ascending: clockwise from seat 1
    first = next((k for k, seat in enumerate(seats) if seat > started["button"]), 0)
    return seats[first:] + seats[:first]


def _blinds_or_straddles(events: list[dict], order: list[int]) -> list[int]:
    started = events[0]
    coming_in = {e["seat"] for e in events if e["type"] == ev.BLIND_POSTED and e["blind"] == ev.EXTRA_BIG_BLIND}

    def posted_by(seat: int) -> int:
        if seat == started["small_blind_seat"]:
            return started["small_blind"]
        if seat == started["big_blind_seat"]:
            return started["big_blind"]
        return -started["big_blind"] if seat in coming_in else 0

    return _swapped_heads_up([posted_by(seat) for seat in order])


def _antes(started: dict, order: list[int]) -> list[int]:
    return _swapped_heads_up([started["big_blind_ante"] if seat == started["big_blind_seat"] else 0 for seat in order])


def _swapped_heads_up(amounts: list[int]) -> list[int]:
    """PokerKit reads the two entries swapped heads-up, where the button posts the small blind."""
    return amounts[::-1] if len(amounts) == 2 else amounts


def _actions(events: list[dict], player: dict[int, str]) -> list[str]:
    turned_up: set[int] = set()
    actions = []
    for event in events:
        kind = event["type"]
        if kind == ev.HOLE_CARDS_DEALT:
            cards = UNKNOWN_HOLE_CARDS if event["cards"] is None else "".join(event["cards"])
            actions.append(f"d dh {player[event['seat']]} {cards}")
        elif kind == ev.STREET_DEALT:
            actions.append(f"d db {''.join(event['cards'])}")
        elif kind == ev.PLAYER_ACTED:
            actions.append(f"{player[event['seat']]} {_betting_word(event)}")
        elif kind == ev.TIMED_OUT:
            if event["became"] != ev.BECAME_FOLD:
                raise PhhUnavailable(
                    "A player ran out of time with chips in the pot and stayed in all-in (RULES 6.2): "
                    "PHH cannot express that. Export this hand as PokerStars text."
                )
            actions.append(f"{player[event['seat']]} f")
        elif kind == ev.HANDS_TURNED_UP:
            for shown in event["hands"]:
                turned_up.add(shown["seat"])
                actions.append(f"{player[shown['seat']]} sm {''.join(shown['cards'])}")
        elif kind == ev.HAND_SHOWN and event["seat"] not in turned_up:
            actions.append(f"{player[event['seat']]} sm {''.join(event['cards'])}")
        elif kind == ev.HAND_MUCKED:
            actions.append(f"{player[event['seat']]} sm")
    return actions


def _betting_word(event: dict) -> str:
    kind = event["kind"]
    if kind == "fold":
        return "f"
    if kind in ("check", "call"):
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


def _list(values) -> str:
    return "[" + ", ".join(str(value) for value in values) + "]"
