"""One event vocabulary: every writer of a hand (the live log, the replayer, PokerStars text, PHH)
handles every event type, and the live log says nothing the replayer does not.

No single hand can hold every event type: hands are turned up (RULES 5.4) only when at most one
player can still bet, and then every hand is shown, so none is mucked. The two hands below hold
them all between them, and every blind kind and timeout outcome too.
"""

import re
from datetime import UTC, datetime

import pytest

from tables.engine import ActionKind, Hand, Variant
from tables.engine.events import Became, BlindKind, EventType
from tables.engine.projection import visible_events
from tables.history import phh, pokerstars, replayer
from tables.history.access import HandRecord
from tables.history.phh import PhhUnavailable, phh_text
from tables.history.pokerstars import pokerstars_text
from tables.history.replayer import replay
from tables.models import Hand as HandRow
from tables.models import Table
from tables.presentation import log_lines, wording
from tables.presentation.log_lines import log_lines as live_log
from tables.presentation.wording import HandWords
from tests.engine.support import make_config, play, stacked_deck

from .test_exports import pokerkit_final_stacks_by_seat

NAMES = {1: "ann", 2: "bob", 3: "cat", 4: "dan"}


def showdown_hand() -> Hand:
    """Pot Limit 1/2 with a big blind ante: ann (1) has the button, bob (2) and cat (3) the blinds,
    cat posts the ante too, and dan (4) posts a big blind to come in (RULES 2.7). ann times out
    with nothing in the pot and is folded (RULES 6.2); bob folds to cat's flop raise; cat bets the
    river, dan calls, cat shows trip aces and dan mucks (RULES 5.4)."""
    config = make_config(
        {1: 200, 2: 200, 3: 200, 4: 200}, button=1, extra_big_blinds=[4], big_blind_ante=1, names=NAMES
    )
    holes = {3: "As Ah Ks Kh", 4: "Qc Jc Tc 9c"}
    hand = Hand(config, stacked_deck(config, holes, "Ad Kd 7c 2h 3s"))
    hand.start()
    play(hand, "4 check", "1 timeout", "2 call", "3 check")
    play(hand, "2 bet 4", "3 raise 12", "4 call", "2 fold")  # flop
    play(hand, "3 check", "4 check")  # turn
    play(hand, "3 bet 10", "4 call")  # river
    assert hand.is_over
    return hand


def all_in_hand() -> Hand:
    """Pot Limit 1/2: ann (1, button, 100), bob (2, small blind, 40), cat (3, big blind, 300).
    ann raises, bob times out with his small blind in and stays in all-in for it (RULES 6.2), ann
    and cat raise each other until ann calls all-in for less: cat's uncalled 102 goes back
    (RULES 3.9), the hands are turned up and the board is run out (RULES 5.4). Two pots: bob can
    win only the main one (RULES 4.1)."""
    config = make_config({1: 100, 2: 40, 3: 300}, button=1, names=NAMES)
    hand = Hand(config, stacked_deck(config, {1: "As Ad Kc Qd", 2: "8h 8d 5c 4d"}, "2c 7d 9h Js 3s"))
    hand.start()
    play(hand, "1 raise 7", "2 timeout", "3 raise 22", "1 raise 67", "3 raise 202", "1 call")
    assert hand.is_over
    return hand


def uncontested_hand() -> Hand:
    """Pot Limit 1/2 heads-up: ann (1, button) raises, bob folds; nobody called, so ann may
    show her cards after the hand, and does (RULES 5.1)."""
    config = make_config({1: 200, 2: 200}, button=1, names=NAMES)
    hand = Hand(config, stacked_deck(config, {1: "As Ad Kc Qd"}, "2c 7d 9h Js 3s"))
    hand.start()
    play(hand, "1 raise 6", "2 fold")
    assert hand.is_over and hand.can_show_uncontested(1) and not hand.can_show_uncontested(2)
    hand.show_uncontested(1)
    return hand


INSTALLATION = 123456  # given, so that these hands need no database
HANDS = {"showdown": showdown_hand, "all-in": all_in_hand, "uncontested": uncontested_hand}


def record(events, viewer_seat):
    """The hand as a player (or, with None, staff after the hand) may see it."""
    row = HandRow(
        pk=41, table=Table(name="Vocabulary", seat_count=6), started_at=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
    )
    if viewer_seat is None:
        return HandRecord(row, events, None, full_knowledge=True)
    return HandRecord(row, visible_events(events, viewer_seat), viewer_seat, full_knowledge=False)


# --- every writer has an entry for every event type --------------------------------------------

WRITERS = {
    "the words of the live log and the replayer": wording.SAYINGS,
    "the live log's line kinds": log_lines.LINE_KINDS,
    "the replayer's table": replayer.TABLE_CHANGES,
    "PokerStars text": pokerstars.LINE_WRITERS,
    "PHH": phh.PHH_ACTIONS,
}


@pytest.mark.parametrize("writer", WRITERS)
def test_every_writer_has_an_entry_for_every_event_type(writer):
    """An entry, or an explicit "nothing to write" (a None line kind, PHH's ``_nothing``)."""
    handled = WRITERS[writer]
    assert set(handled) == set(EventType) and len(handled) == len(EventType)


def test_the_two_hands_hold_every_event_type_blind_kind_and_timeout_outcome():
    events = [event for make in HANDS.values() for event in make().events]
    assert {event["type"] for event in events} == set(EventType)
    assert {event["blind"] for event in events if event["type"] == EventType.BLIND_POSTED} == set(BlindKind)
    assert {event["became"] for event in events if event["type"] == EventType.TIMED_OUT} == set(Became)
    kinds = {event["kind"] for event in events if event["type"] == EventType.PLAYER_ACTED}
    assert kinds == set(ActionKind) - {ActionKind.TIMEOUT}


# --- every writer writes both hands, for every viewer ----------------------------------------


@pytest.mark.parametrize("viewer_seat", [None, 1, 2, 3])
@pytest.mark.parametrize("which", HANDS)
def test_every_writer_writes_the_hand(which, viewer_seat):
    hand = HANDS[which]()
    hand_record = record(hand.events, viewer_seat)
    events = hand_record.events

    steps = replay(events).steps
    assert len(steps) == len(events) and all(step.text.endswith(".") for step in steps)
    log = live_log(events)
    assert [line.text for line in log if line.kind == "win"]  # the pots were paid, and said so
    stars = pokerstars_text(hand_record, INSTALLATION)
    assert stars.startswith("PokerStars Hand #123456000000000041:") and "*** SUMMARY ***" in stars
    if which in ("showdown", "uncontested"):
        # PokerKit plays our PHH under its own rules to our final stacks.
        assert pokerkit_final_stacks_by_seat(phh_text(hand_record, INSTALLATION)) == hand.stacks
    else:
        with pytest.raises(PhhUnavailable, match="PHH cannot express that"):
            phh_text(hand_record, INSTALLATION)  # a protected all-in (RULES 6.2) has no PHH action


# --- the live log and the replayer know the same things ---------------------------------------

CARD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][cdhs](?![0-9A-Za-z])")
NUMBER = re.compile(r"\d+")
NAME = re.compile(r"\b(?:" + "|".join(NAMES.values()) + r")\b")


def facts(text: str, cards=()) -> set[str]:
    """The names, amounts and seat numbers, and cards a line of text tells."""
    return {*NAME.findall(text), *NUMBER.findall(CARD.sub(" ", text)), *CARD.findall(text), *cards}


@pytest.mark.parametrize("viewer_seat", [None, 1, 3])
@pytest.mark.parametrize("which", HANDS)
def test_the_live_log_says_nothing_the_replayer_does_not(which, viewer_seat):
    events = record(HANDS[which]().events, viewer_seat).events
    words = HandWords.of(events)
    steps = replay(events).steps
    for event, step in zip(events, steps, strict=True):
        assert words.sentence(event) == step.text
        told = facts(step.text, step.board)
        for text, cards in words.lines(event):
            assert facts(text, cards) <= told, (text, step.text)


def test_the_log_and_the_replayer_word_a_timeout_and_an_entrants_big_blind_alike():
    """RULES 2.7 and 6.2, once in words: the log line is the replayer's sentence without its full stop."""
    events = showdown_hand().events
    log = [line.text for line in live_log(events)]
    texts = [step.text for step in replay(events).steps]
    for line in (
        "dan posts a big blind to come in: 2",
        "cat posts the big blind ante: 1",
        "ann ran out of time and is folded",
    ):
        assert line in log and f"{line}." in texts
    events = all_in_hand().events
    log = [line.text for line in live_log(events)]
    texts = [step.text for step in replay(events).steps]
    for line in (
        "bob ran out of time and stays in, all-in with the chips already in the pot",
        "The uncalled 102 goes back to cat",
    ):
        assert line in log and f"{line}." in texts
    assert "ann calls 33 (all-in)" in log and "ann calls 33 and is all-in." in texts


def test_variants_keep_their_stored_values():
    """The model's choices are the engine's variants, stored by value (RULES 7.1, 7.2)."""
    assert Table.Variant is Variant
    assert Table._meta.get_field("variant").choices == [
        ("limit", "Limit Omaha High"),
        ("pot_limit", "Pot Limit Omaha High"),
    ]
