"""Pot Limit sizes and all-ins for less (RULES 2.5, 3.6, 3.7). Blinds 5/10."""

import pytest

from tables.engine import Action, ActionKind, HandConfig, SeatSetup, Street, Variant

from .support import assert_illegal, make_config, new_hand, play


def pot_limit_hand(stacks, **options):
    return new_hand(make_config(stacks, blinds=(5, 10), **options))


def sizes(hand):
    legal = hand.legal_actions()
    return legal.seat, legal.call_amount, legal.bet_kind, legal.min_to, legal.max_to


def test_rule_2_5_pot_limit_big_blind_is_twice_the_small_blind():
    seats = (SeatSetup(1, 100), SeatSetup(2, 100))
    with pytest.raises(ValueError, match=r"RULES 2\.5"):
        HandConfig(Variant.POT_LIMIT, 5, 15, 0, seats, 1, 1, 2)
    config = HandConfig(Variant.POT_LIMIT, 5, 10, 0, seats, 1, 1, 2)
    assert (config.small_blind, config.big_blind) == (5, 10)


def test_rule_3_6_preflop_the_big_blind_is_the_opening_bet():
    hand = pot_limit_hand({1: 1000, 2: 1000, 3: 1000})
    # Max: call 10, then raise the pot after the call (5 + 10 + 10 = 25): to 35.
    # Min: raise by the big blind, to 20.
    assert sizes(hand) == (1, 10, "raise", 20, 35)


def test_rule_3_6_max_raise_is_current_bet_plus_pot_bets_and_call():
    hand = pot_limit_hand({1: 1000, 2: 1000, 3: 1000})
    play(hand, "1 raise 35")
    # Small blind: 35 + (5 + 10 + 35 on the table + 30 to call) = 115;
    # min: 35 + the last raise (25) = 60.
    assert sizes(hand) == (2, 30, "raise", 60, 115)
    play(hand, "2 raise 115")
    # Big blind: 115 + (160 on the table + 105 to call) = 380; min 115 + 80.
    assert sizes(hand) == (3, 105, "raise", 195, 380)


def test_rule_3_6_raise_outside_the_limits_is_refused_with_the_limits():
    hand = pot_limit_hand({1: 1000, 2: 1000, 3: 1000})
    play(hand, "1 raise 35")
    assert_illegal(hand, Action(2, ActionKind.RAISE, 116), "Raise must be to between 60 and 115")
    assert_illegal(hand, Action(2, ActionKind.RAISE, 59), "Raise must be to between 60 and 115")
    assert_illegal(hand, Action(2, ActionKind.RAISE, None), "Raise must be to between 60 and 115")


def test_rule_3_6_after_the_flop_bet_between_the_big_blind_and_the_pot():
    hand = pot_limit_hand({1: 1000, 2: 1000, 3: 1000})
    play(hand, "1 call", "2 call", "3 check")
    assert hand.street is Street.FLOP
    assert sizes(hand) == (2, 0, "bet", 10, 30)
    play(hand, "2 bet 20")
    # 20 + (30 + 20 + 20) = 90; min 20 + 20.
    assert sizes(hand) == (3, 20, "raise", 40, 90)


def test_rule_3_6_heads_up_small_blind_completing_or_raising():
    hand = pot_limit_hand({1: 1000, 2: 1000})
    # Button/small blind: call 5; max 10 + (15 + 5) = 30.
    assert sizes(hand) == (1, 5, "raise", 20, 30)


def test_rule_3_6_short_all_in_bet_below_the_big_blind_then_a_raise_adds_a_big_blind():
    hand = pot_limit_hand({1: 1000, 2: 14, 3: 1000})
    play(hand, "1 call", "2 call", "3 check")
    assert sizes(hand) == (2, 0, "bet", 4, 4)  # all it has left
    play(hand, "2 bet 4")
    assert sizes(hand) == (3, 4, "raise", 14, 42)  # 4 + (30 + 4 + 4)


def test_rule_3_7_pot_limit_short_all_in_raise_does_not_reopen_for_players_who_acted():
    hand = pot_limit_hand({1: 1000, 2: 1000, 3: 50})
    play(hand, "1 call", "2 call", "3 check", "2 bet 30")
    play(hand, "3 raise 40")  # all-in, 10 more: less than a full raise of 30
    # Seat 1 has not acted: it may raise, by at least the last full raise.
    assert sizes(hand)[:4] == (1, 40, "raise", 70)
    play(hand, "1 call")
    assert sizes(hand) == (2, 10, None, None, None)
    assert_illegal(hand, Action(2, ActionKind.RAISE, 70), "does not reopen the betting")
    play(hand, "2 call")
    assert hand.street is Street.TURN


def test_rule_3_7_an_all_in_bet_below_the_big_blind_does_not_reopen_for_a_player_who_checked():
    # Robert's Rules: a player who already acted may not raise an all-in bet
    # smaller than the minimum bet. (PokerKit differs: see the differential test.)
    hand = pot_limit_hand({1: 1000, 2: 1000, 3: 14})
    play(hand, "1 call", "2 call", "3 check", "2 check", "3 bet 4")
    assert sizes(hand)[:4] == (1, 4, "raise", 14)
    play(hand, "1 call")
    assert sizes(hand) == (2, 4, None, None, None)


def test_rule_3_7_pot_limit_a_full_raise_behind_a_short_all_in_reopens_only_for_those_it_raised():
    # Robert's Rules: A bets, B raises, C all-in short, A calls: A could
    # have raised (B's raise was full), B may not (C's all-in was short).
    hand = pot_limit_hand({1: 1000, 2: 1000, 3: 1000, 4: 60})
    play(hand, "4 call", "1 call", "2 call", "3 check")
    play(hand, "2 bet 20", "3 raise 40", "4 raise 50")
    assert sizes(hand)[:4] == (1, 50, "raise", 70)
    play(hand, "1 call")
    assert sizes(hand)[:3] == (2, 30, "raise")
    play(hand, "2 call")
    assert sizes(hand) == (3, 10, None, None, None)


def test_rule_3_7_pot_limit_several_short_all_ins_can_add_up_to_a_full_raise():
    hand = pot_limit_hand({1: 1000, 2: 1000, 3: 55, 4: 75})
    play(hand, "4 call", "1 call", "2 call", "3 check")
    play(hand, "2 bet 30", "3 raise 45", "4 raise 65")
    # Each all-in raised less than 30, but seat 2 now faces 35: a full raise (TDA).
    play(hand, "1 call")
    assert sizes(hand)[:4] == (2, 35, "raise", 95)


def test_rule_3_6_no_raise_when_nobody_could_answer_it():
    hand = pot_limit_hand({1: 1000, 2: 1000, 3: 30})
    play(hand, "1 call", "2 fold", "3 raise 30")
    # Seat 3 is all-in and seat 2 folded: seat 1 may only call or fold.
    assert sizes(hand) == (1, 20, None, None, None)


def test_rule_3_6_no_raise_when_the_only_other_player_left_cannot_put_in_more():
    # Seat 2 (small blind) has 3 in total, seat 3 is all-in for its big blind:
    # a raise by seat 1 could never be called beyond 10, only returned.
    hand = pot_limit_hand({1: 1000, 2: 10, 3: 10})
    assert sizes(hand) == (1, 10, None, None, None)


def test_rule_3_6_pot_includes_dead_antes():
    hand = pot_limit_hand({1: 1000, 2: 1000, 3: 1000}, big_blind_ante=10)
    # 10 + (5 + 10 + 10 ante + 10 to call) = 45.
    assert sizes(hand) == (1, 10, "raise", 20, 45)
