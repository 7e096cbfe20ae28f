"""Uncalled bets, side pots and showdown (RULES 3.9, 4.1, 4.2, 5.1, 5.2, 5.4, 5.5).

Most hands use the board Kc Qd Jh 2s 3c (no flush or pair possible on it):
A-T makes the top straight, a pocket king or queen makes a set.
"""

from .support import LIMIT, check_down, make_config, new_hand, of_type, play

BOARD = "Kc Qd Jh 2s 3c"
STRAIGHT = "AsTs4d4h"
STRAIGHT_TOO = "AhTh5d5s"
KINGS = "KhKs5d6d"
QUEENS = "QhQs7d8d"
NINES = "9c9s7h8h"


def shown_and_mucked(events):
    return [(event["type"], event["seat"]) for event in events if event["type"] in ("hand_shown", "hand_mucked")]


def awards(events):
    return [
        (event["amount"], event["eligible"], [(w["seat"], w["amount"]) for w in event["winners"]])
        for event in of_type(events, "pot_awarded")
    ]


def test_rule_3_9_and_5_1_uncalled_raise_returned_and_winner_does_not_show():
    hand = new_hand(make_config({1: 1000, 2: 1000, 3: 1000}, blinds=(5, 10)))
    events = play(hand, "1 raise 35", "2 fold", "3 fold")
    assert of_type(events, "uncalled_bet_returned") == [{"type": "uncalled_bet_returned", "seat": 1, "amount": 25}]
    assert awards(events) == [(25, [1], [(1, 25)])]
    assert shown_and_mucked(events) == []
    assert hand.stacks == {1: 1015, 2: 995, 3: 990}
    assert hand.payouts == {1: 25, 2: 0, 3: 0}


def test_rule_3_9_uncalled_river_bet_goes_back_to_the_bettor():
    hand = new_hand(make_config({1: 100, 2: 100}), {1: KINGS, 2: STRAIGHT}, BOARD)
    play(hand, "1 call", "2 check", "2 check", "1 check", "2 check", "1 check", "2 bet 4")
    events = play(hand, "1 fold")
    assert of_type(events, "uncalled_bet_returned")[0]["amount"] == 4
    assert hand.stacks == {1: 98, 2: 102}


def test_rule_3_9_all_in_bigger_than_the_call_gets_the_excess_back():
    hand = new_hand(make_config({1: 100, 2: 30}), {1: KINGS, 2: STRAIGHT}, BOARD)
    play(hand, "1 raise 6", "2 raise 18", "1 raise 54")
    events = play(hand, "2 call")  # all-in: 30 in total
    assert of_type(events, "uncalled_bet_returned")[0]["amount"] == 24
    assert awards(events) == [(60, [1, 2], [(2, 60)])]
    assert hand.stacks == {1: 70, 2: 60}


def test_rule_4_1_and_4_2_side_pots_by_contribution_levels():
    hand = new_hand(
        make_config({1: 10, 2: 20, 3: 40}),
        {1: KINGS, 2: "JcJs4c5c", 3: "9h9d3h3d"},
        "Kd Qc Jh 2s 9s",
    )
    play(hand, "1 raise 7", "2 raise 14", "3 raise 40", "1 call")
    events = play(hand, "2 call")
    # Seat 3's 20 beyond seat 2's all-in is uncalled (RULES 3.9).
    assert of_type(events, "uncalled_bet_returned")[0] == {
        "type": "uncalled_bet_returned",
        "seat": 3,
        "amount": 20,
    }
    # Main pot 3 x 10 for everyone; side pot 2 x 10 for seats 2 and 3 only.
    assert awards(events) == [(30, [1, 2, 3], [(1, 30)]), (20, [2, 3], [(2, 20)])]
    assert hand.stacks == {1: 30, 2: 20, 3: 20}


def test_rule_4_2_folded_chips_stay_in_the_pot_but_the_folder_is_not_eligible():
    hand = new_hand(make_config({1: 7, 2: 100, 3: 100}), {1: STRAIGHT, 2: KINGS, 3: QUEENS}, BOARD)
    play(hand, "1 raise 7", "2 call", "3 call")  # seat 1 is all-in
    play(hand, "2 bet 10", "3 call")
    events = play(hand, "2 bet 20", "3 fold")
    assert [(pot.amount, pot.eligible) for pot in hand.pots] == []
    # Main pot 21 (seats 1, 2), side pot: seat 2's and folded seat 3's flop bets.
    assert awards(events) == [(21, [1, 2], [(1, 21)]), (20, [2], [(2, 20)])]
    assert hand.stacks == {1: 21, 2: 103, 3: 83}


def test_rule_4_2_pots_mid_hand_list_eligible_seats():
    hand = new_hand(make_config({1: 7, 2: 100, 3: 100}))
    play(hand, "1 raise 7", "2 call", "3 call", "2 bet 10", "3 call")
    assert [(pot.amount, pot.eligible) for pot in hand.pots] == [(21, (1, 2, 3)), (20, (2, 3))]


def test_rule_5_2_exactly_two_hole_cards_four_board_hearts_and_one_in_hand_is_no_flush():
    hand = new_hand(make_config({1: 100, 2: 100}), {1: "Ah3c4d9s", 2: "QsQd7c6d"}, "2h 5h 8h Jh Kc")
    events = check_down(hand)
    # Seat 1 has only ace high; seat 2's pair of queens wins.
    assert awards(events) == [(4, [1, 2], [(2, 4)])]
    shown = {e["seat"]: e for e in of_type(events, "hand_shown")}
    assert shown[2]["category"] == "One pair"


def river_bet_and_call(holes):
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}), holes, BOARD)
    play(hand, "1 call", "2 call", "3 check")
    for _ in range(2):
        play(hand, "2 check", "3 check", "1 check")
    return hand, play(hand, "2 bet 6", "3 call", "1 fold")


def test_rule_5_4_last_bettor_shows_first_and_a_beaten_hand_is_mucked():
    _hand, events = river_bet_and_call({2: STRAIGHT, 3: KINGS, 1: NINES})
    assert shown_and_mucked(events) == [("hand_shown", 2), ("hand_mucked", 3)]
    assert awards(events) == [(18, [2, 3], [(2, 18)])]


def test_rule_5_4_the_caller_shows_a_better_hand():
    _hand, events = river_bet_and_call({2: KINGS, 3: STRAIGHT, 1: NINES})
    assert shown_and_mucked(events) == [("hand_shown", 2), ("hand_shown", 3)]
    assert awards(events) == [(18, [2, 3], [(3, 18)])]


def test_rule_5_4_and_5_5_a_tying_hand_shows_and_splits():
    _hand, events = river_bet_and_call({2: STRAIGHT, 3: STRAIGHT_TOO, 1: NINES})
    assert shown_and_mucked(events) == [("hand_shown", 2), ("hand_shown", 3)]
    assert awards(events) == [(18, [2, 3], [(2, 9), (3, 9)])]


def test_rule_5_4_without_a_river_bet_the_first_player_left_of_the_button_shows_first():
    holes = {2: STRAIGHT, 3: KINGS, 1: QUEENS}
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}), holes, BOARD)
    play(hand, "1 call", "2 call", "3 check")
    events = check_down(hand)
    assert shown_and_mucked(events) == [("hand_shown", 2), ("hand_mucked", 3), ("hand_mucked", 1)]
    shown = of_type(events, "hand_shown")[0]
    assert shown["cards"] == ["As", "Ts", "4d", "4h"]
    assert shown["category"] == "Straight"
    assert sorted(shown["best_five"]) == sorted(["As", "Ts", "Kc", "Qd", "Jh"])


def side_pot_showdown(holes):
    """Seat 3 is all-in on the flop for 10; seats 1 and 2 bet on; seat 2 bets the river."""
    hand = new_hand(make_config({1: 100, 2: 100, 3: 10}), holes, BOARD)
    play(hand, "1 call", "2 call", "3 check", "2 bet 6", "3 raise 8", "1 call", "2 call")
    play(hand, "2 check", "1 check")
    return hand, play(hand, "2 bet 10", "1 call")


def test_rule_5_4_a_hand_that_can_still_win_a_side_pot_is_shown():
    _hand, events = side_pot_showdown({3: STRAIGHT, 1: KINGS, 2: QUEENS})
    assert shown_and_mucked(events) == [("hand_shown", 2), ("hand_shown", 3), ("hand_shown", 1)]
    assert awards(events) == [(30, [1, 2, 3], [(3, 30)]), (20, [1, 2], [(1, 20)])]


def test_rule_5_4_a_hand_beaten_in_every_pot_it_can_win_is_mucked():
    _hand, events = side_pot_showdown({3: STRAIGHT, 1: NINES, 2: QUEENS})
    assert shown_and_mucked(events) == [("hand_shown", 2), ("hand_shown", 3), ("hand_mucked", 1)]
    assert awards(events) == [(30, [1, 2, 3], [(3, 30)]), (20, [1, 2], [(2, 20)])]


def test_rule_5_4_all_in_with_no_more_betting_turns_every_hand_up():
    hand = new_hand(
        make_config({1: 10, 2: 20, 3: 40}),
        {1: KINGS, 2: "JcJs4c5c", 3: "9h9d3h3d"},
        "Kd Qc Jh 2s 9s",
    )
    events = play(hand, "1 raise 7", "2 raise 14", "3 raise 40", "1 call", "2 call")
    turned_up = of_type(events, "hands_turned_up")[0]["hands"]
    assert [hand["seat"] for hand in turned_up] == [2, 3, 1]
    # Seat 3 loses everything it can win, yet is shown: the last raiser first.
    assert shown_and_mucked(events) == [("hand_shown", 3), ("hand_shown", 1), ("hand_shown", 2)]


def test_rule_5_5_odd_chip_goes_to_the_first_tied_winner_left_of_the_button():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}), {1: STRAIGHT, 3: STRAIGHT_TOO}, BOARD)
    play(hand, "1 call", "2 fold", "3 check")  # pot 5: the small blind's chip is dead
    events = check_down(hand)
    # Left of the button (seat 1): seat 2 folded, so seat 3 is the first tied winner.
    assert awards(events) == [(5, [1, 3], [(3, 3), (1, 2)])]


def test_rule_5_5_several_odd_chips_go_one_at_a_time_clockwise_from_the_button():
    config = make_config({1: 100, 2: 100, 3: 100, 4: 100}, variant=LIMIT, blinds=(2, 5))
    hand = new_hand(config, {1: STRAIGHT, 3: STRAIGHT_TOO, 4: "AdTd6c6s"}, BOARD)
    play(hand, "4 call", "1 call", "2 fold", "3 check")  # pot 17 for a three-way tie
    events = check_down(hand)
    assert awards(events) == [(17, [1, 3, 4], [(3, 6), (4, 6), (1, 5)])]
