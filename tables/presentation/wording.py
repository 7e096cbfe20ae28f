"""How the room words a hand's events for people, written once.

The live hand log (``log_lines``) and the replayer (``tables.history.replayer``)
say the same things about each event and differ only in format: a log line
shows its cards beside the text and has no full stop; a replayer step is a
sentence with its cards written in it. One entry of ``SAYINGS`` per event
type writes both forms (``HandWords.lines``, ``HandWords.sentence``), from
the same phrases. The PokerStars export keeps its own fixed
phrases and uses the pieces here (card text, all-in clause, street titles);
PHH, a machine format, uses the card text and the event vocabulary.

The words are in the active language (the viewer's: ``gettext`` at render time, chips
as that language writes them); the English terms the exports share are marked with
``gettext_noop`` and stay English there.

The events are those one viewer may see (``projection.visible_events``):
a ``hole_cards_dealt`` whose ``cards`` are None is another player's deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop

from config.numbers import chips, signed_chips
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

# English terms marked for the catalogue (gettext_noop) and translated where people read them
# (``gettext(...)`` at render time, in the viewer's language); the PokerStars export reads the
# English ones as they are.
BLIND_NAMES = {
    BlindKind.SMALL_BLIND: gettext_noop("the small blind"),
    BlindKind.BIG_BLIND: gettext_noop("the big blind"),
    BlindKind.EXTRA_BIG_BLIND: gettext_noop("a big blind to come in"),  # RULES 2.7, 2.11
    BlindKind.BIG_BLIND_ANTE: gettext_noop("the big blind ante"),
}
STREET_TITLES = {
    Street.PREFLOP: gettext_noop("Pre-flop"),
    Street.FLOP: gettext_noop("Flop"),
    Street.TURN: gettext_noop("Turn"),
    Street.RIVER: gettext_noop("River"),
}
CATEGORY_NAMES = (  # the engine's HAND_CATEGORIES, for the catalogue
    gettext_noop("Straight flush"),
    gettext_noop("Four of a kind"),
    gettext_noop("Full house"),
    gettext_noop("Flush"),
    gettext_noop("Straight"),
    gettext_noop("Three of a kind"),
    gettext_noop("Two pair"),
    gettext_noop("One pair"),
    gettext_noop("High card"),
)
ALL_IN_CLAUSE = " and is all-in"  # inside a PokerStars sentence: the export stays English


def street_title(street: str) -> str:
    """ "Flop", in the active language."""
    return gettext(STREET_TITLES[Street(street)])


def category_name(category: str) -> str:
    """The engine's category ("Full house"), in the active language."""
    return gettext(category) if category else ""


def dealt_to_you() -> str:
    """The viewer's own cards, in the log."""
    return gettext("Dealt to you:")


def hand_in_words(description: HandDescription) -> str:
    """ "Kings full of sevens", in the active language (the engine's template and rank names translated)."""
    params = {name: gettext(rank) for name, rank in description.params.items()}
    return capitalised(gettext(description.template).format(**params))


def five_in_words(best_five: Sequence[str]) -> str:
    """The words of five cards given as texts (a ``hand_shown``'s ``best_five``)."""
    return hand_in_words(describe_five(parse_cards(best_five)))


def player_names(started: Any) -> dict[int, str]:
    """Seat -> the player's name when the hand started ("Seat 3" if none was recorded, in English:
    the exports use it; ``HandWords.name`` says it in the viewer's language).

    ``started``: the ``hand_started`` event or a ``HandConfig.to_dict()``, which carry the same seats.
    """
    return {entry["seat"]: entry["name"] or f"Seat {entry['seat']}" for entry in started["seats"]}  # exports: English


def card_row(cards: Iterable[str], separator: str = " ") -> str:
    """The cards' texts in a row, "Ah Ad Kc" (PHH packs them: separator "")."""
    return separator.join(cards)


def bracketed_cards(cards: Iterable[str]) -> str:
    """ "[Ah Ad Kc]", as the replayer and PokerStars write cards in a sentence."""
    return "[" + card_row(cards) + "]"


def all_in_mark(event: Any) -> str:
    """After a log line."""
    return " " + gettext("(all-in)") if event["all_in"] else ""


def all_in_clause(event: Any) -> str:
    """Inside an English sentence (the PokerStars export's)."""
    return ALL_IN_CLAUSE if event["all_in"] else ""


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
        return self.names.get(seat) or gettext("Seat %(seat)s") % {"seat": seat}


def _hand_started(words: HandWords, event: HandStarted) -> Said:
    """After a departure the button may be dead, or the small blind (RULES 2.9)."""
    button = event["button"]
    blinds = {"small": chips(event["small_blind"]), "big": chips(event["big_blind"])}
    if event["big_bet"]:
        stakes = gettext("blinds %(small)s/%(big)s, bets %(big)s/%(big_bet)s") % {
            **blinds,
            "big_bet": chips(event["big_bet"]),
        }
    else:
        stakes = gettext("blinds %(small)s/%(big)s") % blinds
    said = {"seat": button, "name": words.name(button), "stakes": stakes}
    if button in words.names:
        lines: list[Line] = [(gettext("Button: seat %(seat)s (%(name)s)") % said, NO_CARDS)]
        sentence = gettext("The hand starts: %(name)s (seat %(seat)s) has the button; %(stakes)s.") % said
    else:
        lines = [(gettext("Button: seat %(seat)s (dead button)") % said, NO_CARDS)]
        sentence = (
            gettext("The hand starts: the button is dead on seat %(seat)s (nobody is dealt in from it); %(stakes)s.")
            % said
        )
    if event["small_blind_seat"] is None:
        lines.append((gettext("No small blind this hand (dead small blind)"), NO_CARDS))
        sentence += " " + gettext("Nobody posts the small blind (dead small blind).")
    return (tuple(lines), sentence)


def _blind_posted(words: HandWords, event: BlindPosted) -> Said:
    said = {"name": words.name(event["seat"]), "blind": gettext(BLIND_NAMES[event["blind"]])}
    said["amount"] = chips(event["amount"])
    posts = gettext("%(name)s posts %(blind)s: %(amount)s") % said
    all_in = gettext("%(name)s posts %(blind)s: %(amount)s and is all-in.") % said
    sentence = all_in if event["all_in"] else posts + "."
    return (((posts + all_in_mark(event), NO_CARDS),), sentence)


def _hole_cards_dealt(words: HandWords, event: HoleCardsDealt) -> Said:
    who, cards = words.name(event["seat"]), event["cards"]
    if cards is None:  # another player's deal: nothing to show of it
        return ((), gettext("%(name)s is dealt four cards.") % {"name": who})
    return (
        ((dealt_to_you(), tuple(cards)),),
        gettext("%(name)s is dealt %(cards)s.")
        % {
            "name": who,
            "cards": bracketed_cards(cards),
        },
    )


_ACTION_WORDS: dict[ActionKind, str] = {
    ActionKind.FOLD: gettext_noop("%(name)s folds"),
    ActionKind.CHECK: gettext_noop("%(name)s checks"),
    ActionKind.CALL: gettext_noop("%(name)s calls %(amount)s"),
    ActionKind.BET: gettext_noop("%(name)s bets %(total)s"),
    ActionKind.RAISE: gettext_noop("%(name)s raises to %(total)s"),
}
_ACTION_ALL_IN_SENTENCES: dict[ActionKind, str] = {
    ActionKind.CALL: gettext_noop("%(name)s calls %(amount)s and is all-in."),
    ActionKind.BET: gettext_noop("%(name)s bets %(total)s and is all-in."),
    ActionKind.RAISE: gettext_noop("%(name)s raises to %(total)s and is all-in."),
}


def _player_acted(words: HandWords, event: PlayerActed) -> Said:
    kind = event["kind"]
    said = {"name": words.name(event["seat"]), "amount": chips(event["amount"]), "total": chips(event["total"])}
    acts = gettext(_ACTION_WORDS[kind]) % said
    if event["all_in"] and kind in _ACTION_ALL_IN_SENTENCES:
        sentence = gettext(_ACTION_ALL_IN_SENTENCES[kind]) % said
    else:
        sentence = acts + "."
    return (((acts + all_in_mark(event), NO_CARDS),), sentence)


TIMED_OUT_SAYINGS = {  # RULES 6.2
    Became.FOLD: gettext_noop("%(name)s ran out of time and is folded"),
    Became.PROTECTED_ALL_IN: gettext_noop(
        "%(name)s ran out of time and stays in, all-in with the chips already in the pot"
    ),
}


def _timed_out(words: HandWords, event: TimedOut) -> Said:
    ran_out = gettext(TIMED_OUT_SAYINGS[event["became"]]) % {"name": words.name(event["seat"])}
    return (((ran_out, NO_CARDS),), ran_out + ".")


def _uncalled_bet_returned(words: HandWords, event: UncalledBetReturned) -> Said:
    returned = gettext("The uncalled %(amount)s goes back to %(name)s") % {  # RULES 3.9
        "amount": chips(event["amount"]),
        "name": words.name(event["seat"]),
    }
    return (((returned, NO_CARDS),), returned + ".")


def _street_dealt(words: HandWords, event: StreetDealt) -> Said:
    """The log shows the whole board; the replayer's step shows it beside the new cards."""
    title = street_title(event["street"])
    return (((f"{title}:", tuple(event["board"])),), f"{title}: {bracketed_cards(event['cards'])}.")


def _hands_turned_up(words: HandWords, event: HandsTurnedUp) -> Said:
    """All-in and no more betting: every hand still in is shown (RULES 5.4)."""
    hands = event["hands"]
    turns_up = gettext("%(name)s turns up:")
    lines = tuple((turns_up % {"name": words.name(hand["seat"])}, tuple(hand["cards"])) for hand in hands)
    shown = "; ".join(f"{words.name(hand['seat'])} {bracketed_cards(hand['cards'])}" for hand in hands)
    return (lines, gettext("All-in with no more betting: the hands are turned up (%(hands)s).") % {"hands": shown})


def _hand_shown(words: HandWords, event: HandShown) -> Said:
    """The hand in words, as the player read it on the river ("Kings full of sevens")."""
    who, cards, said = words.name(event["seat"]), event["cards"], five_in_words(event["best_five"])
    sentence = gettext("%(name)s shows %(cards)s: %(hand)s, %(best_five)s.") % {
        "name": who,
        "cards": bracketed_cards(cards),
        "hand": said[:1].lower() + said[1:],
        "best_five": bracketed_cards(event["best_five"]),
    }
    return (((gettext("%(name)s shows %(hand)s:") % {"name": who, "hand": said}, tuple(cards)),), sentence)


def _hand_mucked(words: HandWords, event: HandMucked) -> Said:
    mucks = gettext("%(name)s mucks") % {"name": words.name(event["seat"])}
    return (((mucks, NO_CARDS),), mucks + ".")


def _pot_awarded(words: HandWords, event: PotAwarded) -> Said:
    """One pot: "the pot"; more: "the main pot", "side pot 1"..."""
    index, amount, winners = event["pot_index"], chips(event["amount"]), event["winners"]
    shares = ", ".join(
        gettext("%(name)s wins %(amount)s") % {"name": words.name(w["seat"]), "amount": chips(w["amount"])}
        for w in winners
    )
    if words.pot_count == 1:
        said: dict[str, object] = {"amount": amount, "shares": shares}
        sentence = gettext("The pot (%(amount)s): %(shares)s.") % said
        won = gettext("%(name)s wins the pot (%(amount)s)")
        split = gettext("The pot (%(amount)s) is split: %(split)s")
    elif index == 0:
        said = {"amount": amount, "shares": shares}
        sentence = gettext("The main pot (%(amount)s): %(shares)s.") % said
        won = gettext("%(name)s wins the main pot (%(amount)s)")
        split = gettext("The main pot (%(amount)s) is split: %(split)s")
    else:
        said = {"amount": amount, "shares": shares, "index": index}
        sentence = gettext("The side pot %(index)s (%(amount)s): %(shares)s.") % said
        won = gettext("%(name)s wins side pot %(index)s (%(amount)s)")
        split = gettext("Side pot %(index)s (%(amount)s) is split: %(split)s")
    if len(winners) == 1:
        return (((won % {**said, "name": words.name(winners[0]["seat"])}, NO_CARDS),), sentence)
    parts = ", ".join(f"{words.name(w['seat'])} {chips(w['amount'])}" for w in winners)
    return (((split % {**said, "split": parts}, NO_CARDS),), sentence)


def _hand_ended(words: HandWords, event: HandEnded) -> Said:
    """Nothing in the log: the stacks on the table say it."""
    starting = words.starting_stacks
    changes = ", ".join(
        f"{words.name(s['seat'])} {signed_chips(s['stack'] - starting[s['seat']])}" for s in event["stacks"]
    )
    return ((), gettext("The hand is over: %(changes)s.") % {"changes": changes})


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
