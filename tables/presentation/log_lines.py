"""The hand log panel: one readable line per event the viewer may see."""

from __future__ import annotations

from dataclasses import dataclass, field

from tables.engine import events as ev

from .cards import CardView, card_views

_BLINDS = {
    ev.SMALL_BLIND: "the small blind",
    ev.BIG_BLIND: "the big blind",
    ev.EXTRA_BIG_BLIND: "a big blind to play now",
    ev.BIG_BLIND_ANTE: "a big blind ante",
}
_STREET_TITLES = {"flop": "Flop", "turn": "Turn", "river": "River"}


@dataclass(frozen=True)
class LogLine:
    text: str
    kind: str  # "action", "street", "showdown", "win", "private", "dealt-slot": a CSS class
    cards: list[CardView] = field(default_factory=list)


def log_lines(events: list[dict], dealt_slot: bool = False) -> list[LogLine]:
    """``events``: already filtered by ``projection.visible_events`` for the viewer, so the
    only hole cards here are the viewer's own and those shown at showdown.

    ``dealt_slot``: the public log keeps an empty line (kind "dealt-slot") where the deal
    is, for each player's screen to fill with their own "Dealt to you"."""
    names: dict[int, str] = {}
    side_pots = any(event["type"] == ev.POT_AWARDED and event["pot_index"] for event in events)
    lines: list[LogLine] = []
    for event in events:
        if event["type"] == ev.HAND_STARTED:
            names = {seat["seat"]: seat["name"] for seat in event["seats"]}
            lines.extend(_position_lines(event, names))
            continue
        if event["type"] == ev.HANDS_TURNED_UP:
            # All-in and no more betting: every hand still in is shown (RULES 5.4).
            lines.extend(
                LogLine(f"{names.get(hand['seat'], '')} turns up:", "showdown", card_views(hand["cards"]))
                for hand in event["hands"]
            )
            continue
        if event["type"] == ev.HOLE_CARDS_DEALT and dealt_slot:
            dealt_slot = False
            lines.append(LogLine("", "dealt-slot"))
            continue
        line = _line(event, names, side_pots)
        if line is not None:
            lines.append(line)
    return lines


def _position_lines(started: dict, names: dict[int, str]) -> list[LogLine]:
    """The button, and a small blind nobody posts: after a departure the button may sit on a
    seat nobody is dealt in from, or the small blind be dead (RULES 2.9)."""
    button = started["button"]
    holder = names.get(button, "dead button")
    lines = [LogLine(f"Button: seat {button} ({holder})", "street")]
    if started["small_blind_seat"] is None:
        lines.append(LogLine("No small blind this hand (dead small blind)", "street"))
    return lines


def _line(event: dict, names: dict[int, str], side_pots: bool) -> LogLine | None:
    kind = event["type"]
    who = names.get(event.get("seat"), "")
    if kind == ev.BLIND_POSTED:
        return LogLine(f"{who} posts {_BLINDS[event['blind']]}: {event['amount']}{_all_in(event)}", "action")
    if kind == ev.HOLE_CARDS_DEALT:
        # Another seat's deal arrives with cards=None: nothing to say about it.
        return LogLine("Dealt to you:", "private", card_views(event["cards"])) if event["cards"] else None
    if kind == ev.PLAYER_ACTED:
        return LogLine(f"{who} {_acted(event)}{_all_in(event)}", "action")
    if kind == ev.TIMED_OUT:
        became = "folded" if event["became"] == ev.BECAME_FOLD else "all-in with the chips already in the pot"
        return LogLine(f"{who} ran out of time: {became}", "action")
    if kind == ev.UNCALLED_BET_RETURNED:
        return LogLine(f"{event['amount']} uncalled returned to {who}", "action")
    if kind == ev.STREET_DEALT:
        return LogLine(f"{_STREET_TITLES[event['street']]}:", "street", card_views(event["board"]))
    if kind == ev.HAND_SHOWN:
        return LogLine(f"{who} shows {event['category']}:", "showdown", card_views(event["cards"]))
    if kind == ev.HAND_MUCKED:
        return LogLine(f"{who} mucks", "showdown")
    if kind == ev.POT_AWARDED:
        return LogLine(_award(event, names, side_pots), "win")
    return None  # hand_ended: the stacks on the table say it


def _acted(event: dict) -> str:
    action = event["kind"]
    if action == "fold":
        return "folds"
    if action == "check":
        return "checks"
    if action == "call":
        return f"calls {event['amount']}"
    if action == "bet":
        return f"bets {event['total']}"
    return f"raises to {event['total']}"


def _all_in(event: dict) -> str:
    return " (all-in)" if event.get("all_in") else ""


def _award(event: dict, names: dict[int, str], side_pots: bool) -> str:
    pot = f"side pot {event['pot_index']}" if event["pot_index"] else "the main pot" if side_pots else "the pot"
    winners = event["winners"]
    if len(winners) == 1:
        return f"{names.get(winners[0]['seat'], '')} wins {pot} ({event['amount']})"
    shares = ", ".join(f"{names.get(w['seat'], '')} {w['amount']}" for w in winners)
    return f"{pot.capitalize()} ({event['amount']}) is split: {shares}"
