"""How the room words a hand's events for people, written once.

The live hand log (``log_lines``) and the replayer (``tables.history.replayer``)
say the same things about each event and differ only in format: a log line
shows its cards beside the text and has no full stop; a replayer step is a
sentence with its cards written in it. One entry of ``SAYINGS`` per event
type writes both forms (``HandWords.lines``, ``HandWords.sentence``), from
the same phrases. The PokerStars export keeps its own fixed
phrases and uses the pieces here (card text, all-in clause, street titles);
PHH, a machine format, uses the card text and the event vocabulary.

The events are those one viewer may see (``projection.visible_events``):
a ``hole_cards_dealt`` whose ``cards`` are None is another player's deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from tables.engine import ActionKind, Street
from tables.engine.cards import parse_cards
from tables.engine.events import (
    Became,
    BlindKind,
    BlindPosted,
    CardsShown,
    Event,
    EventType,
    HandEnded,
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
from tables.engine.hand_words import HandDescription, capitalised, describe_five

BLIND_NAMES = {
    BlindKind.SMALL_BLIND: "the small blind",
    BlindKind.BIG_BLIND: "the big blind",
    BlindKind.EXTRA_BIG_BLIND: "a big blind to come in",  # RULES 2.7, 2.11
    BlindKind.BIG_BLIND_ANTE: "the big blind ante",
}
STREET_TITLES = {Street.PREFLOP: "Pre-flop", Street.FLOP: "Flop", Street.TURN: "Turn", Street.RIVER: "River"}
TIMED_OUT_OUTCOMES = {  # RULES 6.2
    Became.FOLD: "is folded",
    Became.PROTECTED_ALL_IN: "stays in, all-in with the chips already in the pot",
}
DEALT_TO_YOU = "Dealt to you:"  # the viewer's own cards, in the log
ALL_IN_MARK = " (all-in)"  # after a log line
ALL_IN_CLAUSE = " and is all-in"  # inside a sentence (the replayer's, and PokerStars')


def hand_in_words(description: HandDescription) -> str:
    """ "Kings full of sevens", in the active language (the engine's template and rank names translated)."""
    params = {name: gettext(rank) for name, rank in description.params.items()}
    return capitalised(gettext(description.template).format(**params))


def five_in_words(best_five: Sequence[str]) -> str:
    """The words of five cards given as texts (a ``hand_shown``'s ``best_five``)."""
    return hand_in_words(describe_five(parse_cards(best_five)))


def player_names(started: Any) -> dict[int, str]:
    """Seat -> the player's name when the hand started ("Seat 3" if none was recorded).

    ``started``: the ``hand_started`` event or a ``HandConfig.to_dict()``, which carry the same seats.
    """
    return {entry["seat"]: entry["name"] or f"Seat {entry['seat']}" for entry in started["seats"]}


def card_row(cards: Iterable[str], separator: str = " ") -> str:
    """The cards' texts in a row, "Ah Ad Kc" (PHH packs them: separator "")."""
    return separator.join(cards)


def bracketed_cards(cards: Iterable[str]) -> str:
    """ "[Ah Ad Kc]", as the replayer and PokerStars write cards in a sentence."""
    return "[" + card_row(cards) + "]"


def all_in_mark(event: Any) -> str:
    return ALL_IN_MARK if event["all_in"] else ""


def all_in_clause(event: Any) -> str:
    return ALL_IN_CLAUSE if event["all_in"] else ""


def pot_name(pot_index: int, pot_count: int) -> str:
    """ "pot" when there is one, else "main pot", "side pot 1", "side pot 2"..."""
    if pot_count == 1:
        return "pot"
    return "main pot" if pot_index == 0 else f"side pot {pot_index}"


# Plain tuples, not records: the live log words every event of the hand on every change of the table.
Line = tuple[str, tuple[str, ...]]
"""One line of the live log: its text, and the cards shown after it."""
Said = tuple[tuple[Line, ...], str]
"""One event in words: the live log's lines (none: it says nothing there), and the replayer's sentence."""
NO_CARDS: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HandWords:
    """What the words of one hand need besides each event: who sat where with what, and how many pots it pays."""

    names: dict[int, str]
    starting_stacks: dict[int, int]
    pot_count: int

    @classmethod
    def of(cls, events: Sequence[Event]) -> HandWords:
        """``events`` begin with ``hand_started``."""
        started = events[0]
        assert started["type"] == EventType.HAND_STARTED
        pot_awarded = EventType.POT_AWARDED
        pot_count = sum(1 for event in events if event["type"] == pot_awarded)
        stacks = {entry["seat"]: entry["stack"] for entry in started["seats"]}
        return cls(player_names(started), stacks, pot_count)

    def lines(self, event: Event) -> tuple[Line, ...]:
        """The live log's lines for the event."""
        return SAYINGS[event["type"]](self, event)[0]

    def sentence(self, event: Event) -> str:
        """The replayer's sentence for the event."""
        return SAYINGS[event["type"]](self, event)[1]

    def name(self, seat: int) -> str:
        return self.names.get(seat) or f"Seat {seat}"


def _hand_started(words: HandWords, event: HandStarted) -> Said:
    """After a departure the button may be dead, or the small blind (RULES 2.9)."""
    button = event["button"]
    stakes = f"blinds {event['small_blind']}/{event['big_blind']}"
    if event["big_bet"]:
        stakes += f", bets {event['big_blind']}/{event['big_bet']}"
    if button in words.names:
        lines: list[Line] = [(f"Button: seat {button} ({words.name(button)})", NO_CARDS)]
        sentence = f"The hand starts: {words.name(button)} (seat {button}) has the button; {stakes}."
    else:
        lines = [(f"Button: seat {button} (dead button)", NO_CARDS)]
        sentence = f"The hand starts: the button is dead on seat {button} (nobody is dealt in from it); {stakes}."
    if event["small_blind_seat"] is None:
        lines.append(("No small blind this hand (dead small blind)", NO_CARDS))
        sentence += " Nobody posts the small blind (dead small blind)."
    return (tuple(lines), sentence)


def _blind_posted(words: HandWords, event: BlindPosted) -> Said:
    posts = f"{words.name(event['seat'])} posts {BLIND_NAMES[event['blind']]}: {event['amount']}"
    return (((posts + all_in_mark(event), NO_CARDS),), f"{posts}{all_in_clause(event)}.")


def _hole_cards_dealt(words: HandWords, event: HoleCardsDealt) -> Said:
    who, cards = words.name(event["seat"]), event["cards"]
    if cards is None:  # another player's deal: nothing to show of it
        return ((), f"{who} is dealt four cards.")
    return (((DEALT_TO_YOU, tuple(cards)),), f"{who} is dealt {bracketed_cards(cards)}.")


_ACTION_WORDS: dict[ActionKind, Callable[[PlayerActed], str]] = {
    ActionKind.FOLD: lambda event: "folds",
    ActionKind.CHECK: lambda event: "checks",
    ActionKind.CALL: lambda event: f"calls {event['amount']}",
    ActionKind.BET: lambda event: f"bets {event['total']}",
    ActionKind.RAISE: lambda event: f"raises to {event['total']}",
}


def _player_acted(words: HandWords, event: PlayerActed) -> Said:
    acts = f"{words.name(event['seat'])} {_ACTION_WORDS[event['kind']](event)}"
    return (((acts + all_in_mark(event), NO_CARDS),), f"{acts}{all_in_clause(event)}.")


def _timed_out(words: HandWords, event: TimedOut) -> Said:
    ran_out = f"{words.name(event['seat'])} ran out of time and {TIMED_OUT_OUTCOMES[event['became']]}"
    return (((ran_out, NO_CARDS),), ran_out + ".")


def _uncalled_bet_returned(words: HandWords, event: UncalledBetReturned) -> Said:
    returned = f"The uncalled {event['amount']} goes back to {words.name(event['seat'])}"  # RULES 3.9
    return (((returned, NO_CARDS),), returned + ".")


def _street_dealt(words: HandWords, event: StreetDealt) -> Said:
    """The log shows the whole board; the replayer's step shows it beside the new cards."""
    title = STREET_TITLES[event["street"]]
    return (((f"{title}:", tuple(event["board"])),), f"{title}: {bracketed_cards(event['cards'])}.")


def _hands_turned_up(words: HandWords, event: HandsTurnedUp) -> Said:
    """All-in and no more betting: every hand still in is shown (RULES 5.4)."""
    hands = event["hands"]
    lines = tuple((f"{words.name(hand['seat'])} turns up:", tuple(hand["cards"])) for hand in hands)
    shown = "; ".join(f"{words.name(hand['seat'])} {bracketed_cards(hand['cards'])}" for hand in hands)
    return (lines, f"All-in with no more betting: the hands are turned up ({shown}).")


def _hand_shown(words: HandWords, event: HandShown) -> Said:
    """The hand in words, as the player read it on the river ("Kings full of sevens")."""
    who, cards, said = words.name(event["seat"]), event["cards"], five_in_words(event["best_five"])
    sentence = (
        f"{who} shows {bracketed_cards(cards)}: {said[:1].lower()}{said[1:]}, {bracketed_cards(event['best_five'])}."
    )
    return (((f"{who} shows {said}:", tuple(cards)),), sentence)


def _hand_mucked(words: HandWords, event: HandMucked) -> Said:
    mucks = f"{words.name(event['seat'])} mucks"
    return (((mucks, NO_CARDS),), mucks + ".")


def _pot_awarded(words: HandWords, event: PotAwarded) -> Said:
    pot = pot_name(event["pot_index"], words.pot_count)
    amount, winners = event["amount"], event["winners"]
    shares = ", ".join(f"{words.name(w['seat'])} wins {w['amount']}" for w in winners)
    sentence = f"The {pot} ({amount}): {shares}."
    the_pot = pot if event["pot_index"] else f"the {pot}"
    if len(winners) == 1:
        return (((f"{words.name(winners[0]['seat'])} wins {the_pot} ({amount})", NO_CARDS),), sentence)
    split = ", ".join(f"{words.name(w['seat'])} {w['amount']}" for w in winners)
    return (((f"{the_pot.capitalize()} ({amount}) is split: {split}", NO_CARDS),), sentence)


def _hand_ended(words: HandWords, event: HandEnded) -> Said:
    """Nothing in the log: the stacks on the table say it."""
    starting = words.starting_stacks
    changes = ", ".join(f"{words.name(s['seat'])} {s['stack'] - starting[s['seat']]:+d}" for s in event["stacks"])
    return ((), f"The hand is over: {changes}.")


def _cards_shown(words: HandWords, event: CardsShown) -> Said:
    """After the hand: the winner nobody called chose to show."""
    who = words.name(event["seat"])
    return (((f"{who} shows:", tuple(event["cards"])),), f"{who} shows {bracketed_cards(event['cards'])}.")


SAYINGS: dict[EventType, Callable[[HandWords, Any], Said]] = {
    EventType.HAND_STARTED: _hand_started,
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
    EventType.HAND_ENDED: _hand_ended,
    EventType.CARDS_SHOWN: _cards_shown,
}
"""Every event type's words, in both forms."""
