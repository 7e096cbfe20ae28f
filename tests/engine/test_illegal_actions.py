"""Illegal actions raise IllegalAction with a clear message and change nothing."""

import pytest

from tables.engine import Action, ActionKind, Hand, IllegalAction

from .support import LIMIT, assert_illegal, make_config, new_hand, play


@pytest.fixture
def hand():
    return new_hand(make_config({1: 100, 2: 100, 3: 100}, blinds=(5, 10)))


def test_out_of_turn(hand):
    assert_illegal(hand, Action(3, ActionKind.CALL), "It is not seat 3's turn")
    assert_illegal(hand, Action(7, ActionKind.FOLD), "It is not seat 7's turn")


def test_rule_3_3_check_only_when_nothing_is_owed(hand):
    assert_illegal(hand, Action(1, ActionKind.CHECK), "You cannot check facing a bet of 10")


def test_call_with_nothing_to_call(hand):
    play(hand, "1 call", "2 call")
    assert_illegal(hand, Action(3, ActionKind.CALL), "There is no bet to call")


def test_bet_when_there_is_a_bet_and_raise_when_there_is_none(hand):
    assert_illegal(hand, Action(1, ActionKind.BET, 20), "There is already a bet of 10")
    play(hand, "1 call", "2 call", "3 check")
    assert_illegal(hand, Action(2, ActionKind.RAISE, 20), "There is no bet to raise")


def test_wrong_amounts(hand):
    assert_illegal(hand, Action(1, ActionKind.RAISE, 19), "Raise must be to between 20 and 35")
    assert_illegal(hand, Action(1, ActionKind.RAISE, 36), "Raise must be to between 20 and 35")
    assert_illegal(hand, Action(1, ActionKind.RAISE, True), "Raise must be to between 20 and 35")
    assert_illegal(hand, Action(1, ActionKind.CALL, 10), "A call takes no amount")


def test_raise_after_the_cap():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}, variant=LIMIT, blinds=(2, 5)))
    play(hand, "1 raise 10", "2 raise 15", "3 raise 20")
    capped = "The betting is capped: you may only call or fold"
    assert_illegal(hand, Action(1, ActionKind.RAISE, 25), capped)


def test_raise_when_nobody_could_answer_it():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 7}))
    play(hand, "1 call", "2 fold", "3 raise 7")
    message = "No other player could call a raise: you may only call or fold"
    assert_illegal(hand, Action(1, ActionKind.RAISE, 12), message)


def test_anything_after_the_hand_is_over(hand):
    play(hand, "1 fold", "2 fold")
    assert hand.is_over
    for seat, kind in ((3, ActionKind.CHECK), (1, ActionKind.FOLD), (3, ActionKind.TIMEOUT)):
        assert_illegal(hand, Action(seat, kind), "The hand is over")


def test_actions_before_start_and_starting_twice():
    config = make_config({1: 100, 2: 100})
    hand = Hand(config, list(range(52)))
    with pytest.raises(IllegalAction, match="has not started"):
        hand.apply(Action(1, ActionKind.CALL))
    hand.start()
    before = hand.to_dict()
    with pytest.raises(IllegalAction, match="already started"):
        hand.start()
    assert hand.to_dict() == before


def test_a_bad_deck_is_refused():
    config = make_config({1: 100, 2: 100})
    with pytest.raises(ValueError):
        Hand(config, [0] * 52)


def test_illegal_actions_all_through_a_hand_change_nothing():
    """At every turn of a checked-down hand, every wrong move leaves the state as it was."""
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    while not hand.is_over:
        legal = hand.legal_actions()
        wrong_seat = next(seat for seat in (1, 2, 3) if seat != legal.seat)
        facing_bet = legal.bet_kind == "raise"
        wager, wrong_wager = (ActionKind.RAISE, ActionKind.BET) if facing_bet else (ActionKind.BET, ActionKind.RAISE)
        for action in (
            Action(wrong_seat, ActionKind.CHECK),
            Action(legal.seat, wrong_wager, 4),
            Action(legal.seat, wager, 10_000),
            Action(legal.seat, ActionKind.CALL if legal.can_check else ActionKind.CHECK),
        ):
            before = hand.to_dict()
            with pytest.raises(IllegalAction):
                hand.apply(action)
            assert hand.to_dict() == before
        play(hand, f"{legal.seat} {'check' if legal.can_check else 'call'}")
