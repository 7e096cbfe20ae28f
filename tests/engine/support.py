"""Helpers for the hand-engine tests: configs, stacked decks, terse actions."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import pytest

from tables.engine import Action, ActionKind, Hand, HandConfig, IllegalAction, SeatSetup, Variant
from tables.engine.cards import parse_cards
from tables.engine.positions import HandPositions

LIMIT = Variant.LIMIT
POT_LIMIT = Variant.POT_LIMIT


def make_config(
    stacks: Mapping[int, int],
    *,
    variant: Variant = POT_LIMIT,
    blinds: tuple[int, int] = (1, 2),
    big_bet: int | None = None,
    button: int | None = None,
    small_blind_seat: int | None = None,
    big_blind_seat: int | None = None,
    extra_big_blinds: Iterable[int] = (),
    big_blind_ante: int = 0,
    names: Mapping[int, str] | None = None,
) -> HandConfig:
    """A config for ``stacks`` (seat -> chips).

    Positions default to the usual ones: the button on the lowest seat, the
    blinds on the next seats clockwise (heads-up: the button posts the small
    blind). Limit's big bet defaults to twice the big blind. ``names``: seat -> player name.
    """
    seats = sorted(stacks)
    if button is None:
        button = seats[0]
    after_button = [s for s in seats if s > button] + [s for s in seats if s <= button]
    if small_blind_seat is None:
        small_blind_seat = button if len(seats) == 2 else after_button[0]
    if big_blind_seat is None:
        big_blind_seat = after_button[0] if len(seats) == 2 else after_button[1]
    if big_bet is None:
        big_bet = 2 * blinds[1] if variant is LIMIT else 0
    extra = set(extra_big_blinds)
    return HandConfig(
        variant=variant,
        small_blind=blinds[0],
        big_blind=blinds[1],
        big_bet=big_bet,
        seats=tuple(SeatSetup(seat, stacks[seat], seat in extra, (names or {}).get(seat, "")) for seat in seats),
        button=button,
        small_blind_seat=small_blind_seat,
        big_blind_seat=big_blind_seat,
        big_blind_ante=big_blind_ante,
    )


def config_for_plan(plan: HandPositions, stack: int = 100) -> HandConfig:
    """The Pot Limit 1/2 config of a ``positions.plan_next_hand`` plan; building it validates
    the positions the way the table layer's config would (RULES 2.3)."""
    return HandConfig(
        variant=POT_LIMIT,
        small_blind=1,
        big_blind=2,
        big_bet=0,
        seats=tuple(SeatSetup(seat, stack, seat in plan.extra_big_blinds) for seat in sorted(plan.dealt_in)),
        button=plan.button,
        small_blind_seat=plan.small_blind_seat,
        big_blind_seat=plan.big_blind_seat,
    )


def stacked_deck(config: HandConfig, holes: Mapping[int, str] | None = None, board: str = "") -> list[int]:
    """A deck that deals ``holes`` (seat -> "AsKd7h2c") and ``board`` under RULES 1.4.

    Dealing goes one card at a time from the seat left of the button, then a
    burn before the flop, the turn and the river. Unnamed cards come from
    the rest of the deck in ascending order.
    """
    holes = holes or {}
    seats = list(config.seat_numbers)
    order = [s for s in seats if s > config.button] + [s for s in seats if s <= config.button]
    count = len(order)
    slots: dict[int, int] = {}
    for position, seat in enumerate(order):
        for round_index, card in enumerate(parse_cards(holes.get(seat, ""))):
            slots[round_index * count + position] = card
    board_slots = [4 * count + offset for offset in (1, 2, 3, 5, 7)]
    for slot, card in zip(board_slots, parse_cards(board), strict=False):  # the board may be given in part
        slots[slot] = card
    named = list(slots.values())
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    spare = iter(card for card in range(52) if card not in set(named))
    return [slots[slot] if slot in slots else next(spare) for slot in range(52)]


def new_hand(config: HandConfig, holes: Mapping[int, str] | None = None, board: str = "") -> Hand:
    hand = Hand(config, stacked_deck(config, holes, board))
    hand.start()
    return hand


def act(hand: Hand, seat: int, kind: str, amount: int | None = None) -> list[dict]:
    return hand.apply(Action(seat, ActionKind(kind), amount))


def play(hand: Hand, *moves: str) -> list[dict]:
    """Apply moves written "3 raise 40", "1 call", "2 fold"; returns all their events."""
    events = []
    for move in moves:
        seat, kind, *amount = move.split()
        events += act(hand, int(seat), kind, int(amount[0]) if amount else None)
    return events


def check_down(hand: Hand) -> list[dict]:
    """Check (or call) until the hand ends."""
    events = []
    while not hand.is_over:
        legal = hand.legal_actions()
        events += act(hand, legal.seat, "check" if legal.can_check else "call")
    return events


def of_type(events: Iterable[dict], kind: str) -> list[dict]:
    return [event for event in events if event["type"] == kind]


def assert_illegal(hand: Hand, action: Action, message: str) -> None:
    """The action raises IllegalAction with ``message`` in it and changes nothing."""
    before = hand.to_dict()
    with pytest.raises(IllegalAction, match=re.escape(message)):
        hand.apply(action)
    assert hand.to_dict() == before


def draw_action(data, legal, *, timeout_percent: int = 0, fold_percent: int = 15) -> Action:
    """A random legal action for hypothesis: some timeouts and folds, bets at the bounds or between."""
    from hypothesis import strategies as st

    roll = data.draw(st.integers(0, 99))
    if roll < timeout_percent:
        return Action(legal.seat, ActionKind.TIMEOUT)
    if roll < timeout_percent + fold_percent and legal.call_amount:
        return Action(legal.seat, ActionKind.FOLD)
    if roll < 45 and legal.bet_kind:
        kind = ActionKind.BET if legal.bet_kind == "bet" else ActionKind.RAISE
        bounds = [legal.min_to, legal.max_to]
        amount = data.draw(st.one_of(st.sampled_from(bounds), st.integers(*bounds)))
        return Action(legal.seat, kind, amount)
    return Action(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
