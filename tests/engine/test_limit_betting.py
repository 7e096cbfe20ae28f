"""Fixed Limit sizes, the cap and all-ins for less (RULES 2.4, 3.5, 3.7).

Stakes 5/10 as in house rules 000: small blind 2, big blind 5 (the small
bet), big bet 10.
"""

from tables.engine import Action, ActionKind, Street

from .support import LIMIT, assert_illegal, make_config, new_hand, of_type, play


def limit_hand(stacks):
    return new_hand(make_config(stacks, variant=LIMIT, blinds=(2, 5), big_bet=10))


def sizes(hand):
    legal = hand.legal_actions()
    return legal.seat, legal.bet_kind, legal.min_to, legal.max_to


def test_rule_2_4_blinds_are_half_the_small_bet_rounded_down_and_the_small_bet():
    hand = limit_hand({1: 100, 2: 100, 3: 100})
    assert hand.bets == {1: 0, 2: 2, 3: 5}
    # A raise before the flop is one small bet (= the big blind) more.
    assert sizes(hand) == (1, "raise", 10, 10)


def test_rule_3_5_small_bet_preflop_and_flop_big_bet_turn_and_river():
    hand = limit_hand({1: 100, 2: 100, 3: 100})
    play(hand, "1 call", "2 call", "3 check")
    assert hand.street is Street.FLOP and sizes(hand) == (2, "bet", 5, 5)
    play(hand, "2 bet 5")
    assert sizes(hand) == (3, "raise", 10, 10)
    play(hand, "3 call", "1 call")
    assert hand.street is Street.TURN and sizes(hand) == (2, "bet", 10, 10)
    play(hand, "2 bet 10")
    assert sizes(hand) == (3, "raise", 20, 20)
    play(hand, "3 call", "1 call")
    assert hand.street is Street.RIVER and sizes(hand) == (2, "bet", 10, 10)


def test_rule_3_5_a_bet_or_raise_of_another_size_is_refused():
    hand = limit_hand({1: 100, 2: 100, 3: 100})
    assert_illegal(hand, Action(1, ActionKind.RAISE, 15), "Raise must be to 10")
    play(hand, "1 call", "2 call", "3 check")
    assert_illegal(hand, Action(2, ActionKind.BET, 10), "Bet must be to 5")


def test_rule_3_5_preflop_the_big_blind_counts_as_the_bet_so_three_raises_cap_it():
    hand = limit_hand({1: 100, 2: 100, 3: 100, 4: 100})
    play(hand, "4 raise 10", "1 raise 15", "2 raise 20")
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.bet_kind) == (3, 15, None)
    capped = "The betting is capped: you may only call or fold"
    assert_illegal(hand, Action(3, ActionKind.RAISE, 25), capped)
    play(hand, "3 call")
    # Still capped for the players who raised earlier.
    assert sizes(hand) == (4, None, None, None)
    play(hand, "4 call", "1 call")
    assert hand.street is Street.FLOP


def test_rule_3_5_after_the_flop_a_bet_and_three_raises_cap_it():
    hand = limit_hand({1: 100, 2: 100, 3: 100})
    play(hand, "1 call", "2 call", "3 check")
    play(hand, "2 bet 5", "3 raise 10", "1 raise 15", "2 raise 20")
    assert sizes(hand) == (3, None, None, None)
    assert_illegal(hand, Action(3, ActionKind.RAISE, 25), "The betting is capped")
    play(hand, "3 call", "1 call")
    assert hand.street is Street.TURN


def test_rule_3_7_limit_all_in_raise_of_half_a_bet_or_more_is_a_full_raise():
    # Seat 3 has 8 behind after the flop: its all-in raise is 3, at least half of 5.
    hand = limit_hand({1: 100, 2: 100, 3: 13})
    play(hand, "1 call", "2 call", "3 check", "2 bet 5")
    assert sizes(hand) == (3, "raise", 8, 8)
    play(hand, "3 raise 8")
    # Treated as a full raise: the next raise is a full bet on top (Robert's Rules).
    assert sizes(hand) == (1, "raise", 13, 13)
    play(hand, "1 call")
    # The bettor faces 3 more, a full raise under the half-bet rule: it may re-raise.
    assert sizes(hand) == (2, "raise", 13, 13)
    # It also counted toward the cap: bet (1), all-in (2), 13 (3), 18 (4).
    play(hand, "2 raise 13", "1 raise 18")
    assert sizes(hand) == (2, None, None, None)


def test_rule_3_7_limit_all_in_raise_under_half_a_bet_does_not_reopen():
    # Seat 3 has 7 behind: its all-in raise is 2, less than half of 5.
    hand = limit_hand({1: 100, 2: 100, 3: 12})
    play(hand, "1 call", "2 call", "3 check", "2 bet 5", "3 raise 7")
    # Seat 1 has not acted: it may call 7 or complete the bet to a full raise, 10.
    assert sizes(hand) == (1, "raise", 10, 10)
    play(hand, "1 call")
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.bet_kind) == (2, 2, None)
    assert_illegal(hand, Action(2, ActionKind.RAISE, 12), "does not reopen the betting")
    play(hand, "2 call")
    assert hand.street is Street.TURN


def test_rule_3_7_limit_completing_a_short_all_in_reopens_for_the_others():
    hand = limit_hand({1: 100, 2: 100, 3: 12})
    play(hand, "1 call", "2 call", "3 check", "2 bet 5", "3 raise 7", "1 raise 10")
    # The bettor now faces a full raise: 5 more.
    assert sizes(hand) == (2, "raise", 15, 15)


def test_rule_3_7_limit_short_all_in_bet_may_be_called_or_completed():
    # The small blind has 2 behind after pre-flop.
    hand = limit_hand({1: 100, 2: 7, 3: 100})
    play(hand, "1 call", "2 call", "3 check")
    assert sizes(hand) == (2, "bet", 2, 2)
    events = play(hand, "2 bet 2")
    assert events[0]["all_in"]
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.bet_kind, legal.min_to) == (3, 2, "raise", 5)


def test_rule_3_7_limit_several_short_all_ins_add_up_to_a_full_raise():
    hand = limit_hand({1: 100, 2: 100, 3: 12, 4: 14})
    play(hand, "4 call", "1 call", "2 call", "3 check")
    play(hand, "2 bet 5", "3 raise 7", "4 raise 9")
    # 9 is 4 above the last full bet (5): at least half a bet, so a full raise.
    assert sizes(hand) == (1, "raise", 14, 14)
    play(hand, "1 call")
    assert sizes(hand) == (2, "raise", 14, 14)


def test_rule_3_3_limit_call_all_in_for_less():
    hand = limit_hand({1: 100, 2: 100, 3: 8})
    play(hand, "1 raise 10")
    play(hand, "2 call")
    legal = hand.legal_actions()
    assert (legal.seat, legal.call_amount, legal.bet_kind) == (3, 3, None)
    events = play(hand, "3 call")
    assert events[0]["all_in"]
    assert of_type(events, "street_dealt")  # everyone else matched: the flop comes
