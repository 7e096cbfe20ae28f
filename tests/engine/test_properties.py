"""Invariants over random tables and random legal play (Hypothesis).

Tables of 2-10 players, both variants, stacks from one chip to deep, extra
big blinds and antes; play picks random legal actions, timeouts included.
After every action chips are conserved (RULES 3.8), no stack is negative
and the pots plus the bets equal what was put in (RULES 4.2); every hand
ends; replaying the action log rebuilds the identical hand.
"""

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tables.engine import Action, ActionKind, Hand, HandConfig, IllegalAction, SeatSetup, Variant

from .support import draw_action

MAX_ACTIONS = 400  # far above any real hand: 10 players, 4 capped rounds


@st.composite
def configs(draw) -> HandConfig:
    count = draw(st.integers(2, 10))
    seats = sorted(draw(st.lists(st.integers(1, 10), min_size=count, max_size=count, unique=True)))
    variant = draw(st.sampled_from(list(Variant)))
    if variant is Variant.LIMIT:
        big_blind = draw(st.integers(1, 10))
        small_blind, big_bet = big_blind // 2, 2 * big_blind
    else:
        small_blind = draw(st.integers(1, 5))
        big_blind, big_bet = 2 * small_blind, 0
    short = st.integers(1, 3 * big_blind)
    deep = st.integers(3 * big_blind, 300 * big_blind)
    stacks = [draw(st.one_of(short, deep)) for _ in seats]
    button = draw(st.sampled_from(seats))
    after_button = [s for s in seats if s > button] + [s for s in seats if s <= button]
    if count == 2:
        small_blind_seat, big_blind_seat = button, after_button[0]
    else:
        small_blind_seat, big_blind_seat = after_button[0], after_button[1]
    others = [s for s in seats if s not in (small_blind_seat, big_blind_seat)]
    extra = set(draw(st.lists(st.sampled_from(others), max_size=2))) if others else set()
    ante = draw(st.sampled_from([0, 0, 0, big_blind]))
    return HandConfig(
        variant=variant,
        small_blind=small_blind,
        big_blind=big_blind,
        big_bet=big_bet,
        seats=tuple(SeatSetup(s, stack, s in extra) for s, stack in zip(seats, stacks, strict=True)),
        button=button,
        small_blind_seat=small_blind_seat,
        big_blind_seat=big_blind_seat,
        big_blind_ante=ante,
    )


def check_invariants(hand: Hand, total: int) -> None:
    stacks, bets, contributed = hand.stacks, hand.bets, hand.contributed
    pots = hand.pots
    assert min(stacks.values()) >= 0 and min(bets.values()) >= 0
    assert sum(stacks.values()) + sum(p.amount for p in pots) + sum(bets.values()) == total
    if not hand.is_over:
        assert sum(p.amount for p in pots) + sum(bets.values()) == sum(contributed.values())
        live = {seat for seat, status in hand.statuses.items() if status != "folded"}
        for pot in pots:
            assert pot.amount > 0 and pot.eligible and set(pot.eligible) <= live
        legal = hand.legal_actions()
        assert legal is not None and legal.seat == hand.to_act
        assert hand.statuses[legal.seat] == "active"
        assert 0 <= legal.call_amount <= stacks[legal.seat]
        assert legal.can_check == (legal.call_amount == 0)
        if legal.bet_kind:
            all_in_to = bets[legal.seat] + stacks[legal.seat]
            assert bets[legal.seat] < legal.min_to <= legal.max_to <= all_in_to
        else:
            assert legal.min_to is None and legal.max_to is None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), deck=st.permutations(range(52)), data=st.data())
def test_random_hands_conserve_chips_terminate_and_replay(config, deck, data):
    hand = Hand(config, deck)
    total = sum(setup.stack for setup in config.seats)
    hand.start()
    protected_stacks = {}
    for _ in range(MAX_ACTIONS):
        check_invariants(hand, total)
        if hand.is_over:
            break
        action = draw_action(data, hand.legal_actions(), timeout_percent=4, fold_percent=16)
        hand.apply(action)
        if action.kind is ActionKind.TIMEOUT and hand.statuses[action.seat] == "protected":
            protected_stacks[action.seat] = hand.stacks[action.seat]
    assert hand.is_over, "the hand must end"
    event(f"players: {len(config.seats)}, {config.variant.value}")
    event(f"protected all-ins: {len(protected_stacks)}")
    event(f"pots: {len(hand.results)}")
    # Only a blind nobody matched, returned uncalled (RULES 3.9), leaves no pot.
    assert hand.results or not any(hand.contributed.values())

    assert sum(hand.stacks.values()) == total
    assert hand.pots == [] and hand.to_act is None and hand.legal_actions() is None
    assert sum(hand.payouts.values()) == sum(hand.contributed.values())
    for award in hand.results:
        assert {seat for seat, _ in award.winners} <= set(award.eligible)
        assert sum(chips for _, chips in award.winners) == award.amount
    for seat, stack_at_timeout in protected_stacks.items():
        # RULES 6.2: the chips a timed-out player had not bet are never at risk.
        assert hand.stacks[seat] >= stack_at_timeout
    for seat in protected_stacks:
        timed_out_at = first_timeout(hand, seat)
        assert all(a.seat != seat for a in hand.actions[timed_out_at + 1 :])

    again = Hand.replay(config, deck, hand.actions)
    assert again.to_dict() == hand.to_dict()
    assert again.events == hand.events


def first_timeout(hand: Hand, seat: int) -> int:
    return next(i for i, a in enumerate(hand.actions) if a.seat == seat and a.kind is ActionKind.TIMEOUT)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), deck=st.permutations(range(52)), data=st.data())
def test_random_illegal_actions_leave_the_hand_unchanged(config, deck, data):
    hand = Hand(config, deck)
    hand.start()
    seats = [setup.seat for setup in config.seats]
    while not hand.is_over:
        legal = hand.legal_actions()
        wrong = data.draw(
            st.sampled_from(
                [
                    Action(next(s for s in seats if s != legal.seat), ActionKind.CALL),
                    Action(legal.seat, ActionKind.CHECK if legal.call_amount else ActionKind.CALL),
                    Action(legal.seat, ActionKind.RAISE, (legal.max_to or 0) + 1),
                    Action(legal.seat, ActionKind.BET, 0),
                    Action(legal.seat, ActionKind.FOLD, 5),
                ]
            )
        )
        before = hand.to_dict()
        try:
            hand.apply(wrong)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"accepted {wrong} with {legal}")
        assert hand.to_dict() == before
        hand.apply(draw_action(data, hand.legal_actions(), timeout_percent=4, fold_percent=16))
    with pytest.raises(IllegalAction, match="The hand is over"):
        hand.apply(Action(seats[0], ActionKind.CHECK))
