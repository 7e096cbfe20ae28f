"""Hundreds of simulated hands, exported as PokerStars text and read back as a tracker reads them.

Limit and Pot Limit, heads-up to 6-max, short stacks (all-ins, side pots), mirrored holdings (split
pots) and timeouts (folds and protected all-ins, RULES 6.2): every hand's every line must be one
PokerStars writes, and its chips must add up to the engine's own results with no rake.
"""

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from tables.engine import Action, ActionKind, Hand, Variant
from tables.engine.cards import format_cards
from tables.engine.events import Became, EventType
from tables.engine.projection import visible_events
from tables.history.access import HandRecord
from tables.history.pokerstars import pokerstars_texts
from tables.models import Hand as HandRow
from tables.models import Table
from tests.engine.support import make_config, stacked_deck
from tests.support.pokerstars import check_chips_add_up, read_hands

HAND_COUNT = 300
INSTALLATION = 424242
# Two holdings of the same ranks and a board with no three cards of a suit: no flush is possible,
# so the two always tie, and split what they both contest.
MIRRORED = ("As Kd 7c 2h", "Ah Ks 7d 2c")
RAINBOW_BOARDS = ("Qc Jh 9s 4d 3c", "Tc 8h 6s 5d 5c", "Kc Qh 3s 3d 9c")


def simulated_hand(rng: random.Random) -> Hand:
    variant = rng.choice([Variant.LIMIT, Variant.POT_LIMIT])
    seats = sorted(rng.sample(range(1, 7), rng.randint(2, 6)))
    stacks = {seat: rng.choice([rng.randint(1, 25), rng.randint(25, 120), rng.randint(120, 400)]) for seat in seats}
    limit = variant == Variant.LIMIT
    config = make_config(
        stacks,
        variant=variant,
        blinds=(5, 10) if limit else (1, 2),
        big_bet=20 if limit else None,
        button=rng.choice(seats),
        names={seat: f"player{seat}" for seat in seats},
    )
    if rng.random() < 0.3:
        first, second = rng.sample(seats, 2)
        holes = {first: MIRRORED[0], second: MIRRORED[1]}
        deck = stacked_deck(config, holes, rng.choice(RAINBOW_BOARDS))
    else:
        deck = list(range(52))
        rng.shuffle(deck)
    hand = Hand(config, deck)
    hand.start()
    while not hand.is_over:
        hand.apply(random_action(hand, rng))
    return hand


def random_action(hand: Hand, rng: random.Random) -> Action:
    legal = hand.legal_actions()
    assert legal is not None
    draw = rng.random()
    if draw < 0.06:
        return Action(legal.seat, ActionKind.TIMEOUT)
    if draw < 0.2 and not legal.can_check:
        return Action(legal.seat, ActionKind.FOLD)
    if draw < 0.6 or legal.bet_kind is None:
        return Action(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    amount = legal.max_to if rng.random() < 0.3 else rng.randint(legal.min_to, legal.max_to)
    return Action(legal.seat, legal.bet_kind, amount)


def record(hand: Hand, hand_id: int, viewer_seat: int | None) -> HandRecord:
    row = HandRow(
        pk=hand_id,
        table=Table(name="Simulated", seat_count=6),
        started_at=datetime(2026, 3, 8, 6, 0, tzinfo=UTC) + timedelta(minutes=hand_id),
    )
    if viewer_seat is None:
        return HandRecord(row, hand.events, None, full_knowledge=True)
    return HandRecord(row, visible_events(hand.events, viewer_seat), viewer_seat, full_knowledge=False)


@pytest.fixture(scope="module")
def simulated() -> list[Hand]:
    rng = random.Random(20260308)
    return [simulated_hand(rng) for _ in range(HAND_COUNT)]


def test_the_simulated_hands_cover_what_the_export_must_handle(simulated):
    seen: Counter[str] = Counter()
    for hand in simulated:
        events = hand.events
        seen[hand.config.variant] += 1
        seen[f"{len(hand.config.seats)} players"] += 1
        awards = [event for event in events if event["type"] == EventType.POT_AWARDED]
        seen["side pots"] += len(awards) > 1
        seen["side pot-1 and side pot-2"] += len(awards) > 2
        seen["split pots"] += any(len(award["winners"]) > 1 for award in awards)
        seen["showdowns"] += any(event["type"] == EventType.HAND_SHOWN for event in events)
        for event in events:
            if event["type"] == EventType.TIMED_OUT:
                seen[f"timeout: {event['became']}"] += 1
            if event["type"] in (EventType.PLAYER_ACTED, EventType.BLIND_POSTED) and event["all_in"]:
                seen["all-ins"] += 1
    wanted = [Variant.LIMIT, Variant.POT_LIMIT, *(f"{n} players" for n in range(2, 7))]
    wanted += [
        "side pots",
        "side pot-1 and side pot-2",
        "split pots",
        "showdowns",
        "all-ins",
        f"timeout: {Became.FOLD}",
    ]
    wanted += [f"timeout: {Became.PROTECTED_ALL_IN}"]
    assert all(seen[what] >= 5 for what in wanted), seen


@pytest.mark.parametrize("viewer", ["staff", "a player"])
def test_every_simulated_hand_reads_as_pokerstars_and_its_chips_add_up(simulated, viewer):
    viewers = [None if viewer == "staff" else min(hand.config.seat_numbers) for hand in simulated]
    records = [record(hand, k, seat) for k, (hand, seat) in enumerate(zip(simulated, viewers, strict=True), start=1)]

    tracked = read_hands(pokerstars_texts(records, INSTALLATION))

    assert len(tracked) == HAND_COUNT
    assert len({each.number for each in tracked}) == HAND_COUNT
    assert any(len(each.pots) > 2 for each in tracked)  # "Main pot N. Side pot-1 N. Side pot-2 N."
    for hand, seat, read in zip(simulated, viewers, tracked, strict=True):
        check_chips_add_up(read)
        names = {setup.seat: setup.name for setup in hand.config.seats}
        assert read.nets == {names[s]: hand.stacks[s] - hand.starting_stacks[s] for s in names}, read.lines
        protected = {
            names[event["seat"]]
            for event in hand.events
            if event["type"] == EventType.TIMED_OUT and event["became"] == Became.PROTECTED_ALL_IN
        }
        assert protected <= read.all_in  # a tracker sees the protected all-in as all-in
        if seat is not None:  # a player sees their own cards and the hands shown, nothing else
            assert set(read.dealt) == {names[seat]}
            text = "\n".join(read.lines)
            for other in set(names) - {seat}:
                if names[other] not in read.shown:
                    assert "[" + " ".join(format_cards(hand.hole_cards(other))) + "]" not in text
