"""Running out of time (RULES 6.2): fold with nothing in, else a protected all-in."""

from tables.engine import Action, ActionKind, Street

from .support import assert_illegal, check_down, make_config, new_hand, of_type, play

BOARD = "Kc Qd Jh 2s 3c"
STRAIGHT = "AsTs4d4h"
KINGS = "KhKs5d6d"
QUEENS = "QhQs7d8d"


def test_rule_6_2_timeout_with_nothing_in_the_pot_folds():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    events = play(hand, "1 timeout")
    assert events == [{"type": "timed_out", "seat": 1, "street": "preflop", "became": "fold"}]
    assert hand.statuses[1] == "folded"
    assert hand.to_act == 2


def test_rule_6_2_timeout_with_chips_in_is_a_protected_all_in_for_the_main_pot_only():
    holes = {1: STRAIGHT, 2: KINGS, 3: QUEENS}
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}), holes, BOARD)
    play(hand, "1 call", "2 call", "3 check", "2 check", "3 bet 6")
    events = play(hand, "1 timeout")
    assert events[0] == {
        "type": "timed_out",
        "seat": 1,
        "street": "flop",
        "became": "protected_all_in",
    }
    assert hand.statuses[1] == "protected"
    assert hand.stacks[1] == 98  # the unbet chips stay the player's, never at risk
    play(hand, "2 call")
    assert hand.street is Street.TURN
    events = check_down(hand)
    assert hand.to_act is None and hand.is_over
    pots = [(e["amount"], e["eligible"], e["winners"]) for e in of_type(events, "pot_awarded")]
    # Seat 1 has the best hand but wins only up to its 2 chips from each player.
    assert pots == [
        (6, [1, 2, 3], [{"seat": 1, "amount": 6}]),
        (12, [2, 3], [{"seat": 2, "amount": 12}]),
    ]
    assert hand.stacks == {1: 104, 2: 104, 3: 92}


def test_rule_6_2_a_protected_player_is_never_asked_again_and_the_round_completes():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    play(hand, "1 raise 7", "2 call")
    events = play(hand, "3 timeout")  # the big blind has 2 in: protected, not folded
    assert events[0]["became"] == "protected_all_in"
    assert hand.street is Street.FLOP
    asked = set()
    while not hand.is_over:
        legal = hand.legal_actions()
        asked.add(legal.seat)
        play(hand, f"{legal.seat} {'check' if legal.can_check else 'call'}")
    assert asked == {1, 2}
    assert hand.contributed[3] == 2


def test_rule_6_2_protected_player_against_one_other_runs_the_board_out():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    play(hand, "1 fold")
    events = play(hand, "2 timeout")  # the small blind, 1 in
    # The big blind alone can act and owes nothing: no more betting.
    assert of_type(events, "uncalled_bet_returned")[0] == {
        "type": "uncalled_bet_returned",
        "seat": 3,
        "amount": 1,
    }
    assert [e["street"] for e in of_type(events, "street_dealt")] == ["flop", "turn", "river"]
    assert of_type(events, "hands_turned_up")
    assert hand.is_over
    assert sum(hand.stacks.values()) == 300


def test_rule_6_2_timeout_after_calling_when_a_check_is_possible_is_still_protected():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    play(hand, "1 call", "2 call", "3 check")
    events = play(hand, "2 timeout")
    assert events[0]["became"] == "protected_all_in"


def test_rule_6_2_only_the_seat_to_act_can_time_out():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    assert_illegal(hand, Action(2, ActionKind.TIMEOUT), "It is not seat 2's turn")


def test_rule_6_2_the_engine_says_what_a_timeout_would_make_of_the_seat_to_act():
    """The table's clock asks rather than working it out (its daily allowance of protected all-ins)."""
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    assert (hand.to_act, hand.timeout_outcome()) == (1, "fold")  # the button, nothing in
    play(hand, "1 call")
    assert (hand.to_act, hand.timeout_outcome()) == (2, "protected_all_in")  # the small blind
    play(hand, "2 call", "3 check", "2 check", "3 check")
    assert (hand.to_act, hand.timeout_outcome()) == (1, "protected_all_in")  # called before: still in
    check_down(hand)
    assert hand.timeout_outcome() is None  # nobody to act
