"""Dealing, blinds, turn order and betting rounds (RULES 1.3, 1.4, 2.3, 2.6-2.8, 3.1-3.4, 3.8)."""

from tables.engine import Action, ActionKind, Hand, Street
from tables.engine.cards import parse_cards

from .support import LIMIT, act, assert_illegal, check_down, make_config, new_hand, of_type, play


def to_act_sequence(hand: Hand, kind: str = "call") -> list[int]:
    """Let everyone call/check around one round and record who was asked."""
    street = hand.street
    asked = []
    while not hand.is_over and hand.street is street:
        legal = hand.legal_actions()
        asked.append(legal.seat)
        act(hand, legal.seat, "check" if legal.can_check else kind)
    return asked


def test_rule_1_4_four_cards_one_at_a_time_from_left_of_button_and_burns():
    config = make_config({1: 100, 2: 100, 3: 100}, button=1)
    hand = Hand(config, list(range(52)))
    events = hand.start()
    # Deal order 2, 3, 1 (left of the button first), one card per pass.
    assert hand.hole_cards(2) == (0, 3, 6, 9)
    assert hand.hole_cards(3) == (1, 4, 7, 10)
    assert hand.hole_cards(1) == (2, 5, 8, 11)
    assert [event["seat"] for event in of_type(events, "hole_cards_dealt")] == [2, 3, 1]
    check_down(hand)
    # Card 12 burned, flop 13-15, 16 burned, turn 17, 18 burned, river 19.
    assert hand.board == (13, 14, 15, 17, 19)


def test_rule_1_4_dealing_starts_left_of_a_dead_button():
    stacks = {2: 100, 5: 100, 7: 100, 9: 100}
    config = make_config(stacks, button=4, small_blind_seat=5, big_blind_seat=7)
    hand = Hand(config, list(range(52)))
    events = hand.start()
    assert [event["seat"] for event in of_type(events, "hole_cards_dealt")] == [5, 7, 9, 2]
    assert hand.hole_cards(5)[0] == 0 and hand.hole_cards(2)[0] == 3


def test_rule_1_3_and_3_2_clockwise_from_left_of_big_blind_then_from_left_of_button():
    config = make_config({2: 100, 5: 100, 7: 100, 9: 100}, button=2)
    hand = new_hand(config)
    assert (config.small_blind_seat, config.big_blind_seat) == (5, 7)
    assert to_act_sequence(hand) == [9, 2, 5, 7]
    assert hand.street is Street.FLOP
    assert to_act_sequence(hand) == [5, 7, 9, 2]


def test_rule_3_2_later_rounds_start_with_the_first_player_still_in_left_of_the_button():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100, 4: 100}, button=1))
    play(hand, "4 call", "1 call", "2 fold", "3 check")
    assert hand.street is Street.FLOP
    assert hand.to_act == 3


def test_rule_2_3_blinds_left_of_the_button():
    hand = Hand(make_config({1: 100, 2: 100, 3: 100}, blinds=(5, 10), button=3), list(range(52)))
    posts = of_type(hand.start(), "blind_posted")
    assert [(p["seat"], p["blind"], p["amount"]) for p in posts] == [
        (1, "small_blind", 5),
        (2, "big_blind", 10),
    ]
    assert hand.stacks == {1: 95, 2: 90, 3: 100}
    assert hand.to_act == 3


def test_rule_2_3_heads_up_button_posts_small_blind_acts_first_preflop_and_last_after():
    config = make_config({1: 100, 2: 100}, button=1)
    assert (config.small_blind_seat, config.big_blind_seat) == (1, 2)
    hand = new_hand(config)
    assert hand.bets == {1: 1, 2: 2}
    assert to_act_sequence(hand) == [1, 2]
    for _ in range(3):
        assert to_act_sequence(hand) == [2, 1]
    assert hand.is_over


def test_rule_2_6_big_blind_is_live_and_may_raise_when_everyone_limps():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    play(hand, "1 call", "2 call")
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.can_check
    # Pot Limit: min raise adds the big blind; max is the pot of 6 on top of 2.
    assert (legal.bet_kind, legal.min_to, legal.max_to) == ("raise", 4, 8)
    play(hand, "3 raise 8")
    assert hand.street is Street.PREFLOP
    assert hand.to_act == 1 and hand.legal_actions().call_amount == 6


def test_rule_2_6_limit_big_blind_option_raise_is_one_small_bet():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}, variant=LIMIT, blinds=(2, 5)))
    play(hand, "1 call", "2 call")
    legal = hand.legal_actions()
    assert (legal.seat, legal.can_check, legal.min_to, legal.max_to) == (3, True, 10, 10)


def test_rule_2_6_big_blind_checks_its_option_and_the_flop_comes():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    play(hand, "1 call", "2 call", "3 check")
    assert hand.street is Street.FLOP
    assert sum(pot.amount for pot in hand.pots) == 6


def test_rule_2_7_a_posted_extra_big_blind_is_live():
    config = make_config({1: 100, 2: 100, 3: 100, 4: 100}, button=1, extra_big_blinds=[4])
    hand = Hand(config, list(range(52)))
    posts = of_type(hand.start(), "blind_posted")
    assert [(p["seat"], p["blind"], p["amount"]) for p in posts] == [
        (2, "small_blind", 1),
        (3, "big_blind", 2),
        (4, "extra_big_blind", 2),
    ]
    # Seat 4 is first to act (left of the big blind) and already has the bet in.
    legal = hand.legal_actions()
    assert (legal.seat, legal.can_check, legal.call_amount, legal.bet_kind) == (4, True, 0, "raise")
    play(hand, "4 check", "1 call", "2 call")
    assert hand.legal_actions().seat == 3  # the big blind still has its option
    play(hand, "3 check")
    assert hand.street is Street.FLOP
    assert sum(pot.amount for pot in hand.pots) == 8


def test_rule_2_8_a_short_big_blind_posts_what_it_has_and_is_all_in():
    hand = Hand(make_config({1: 100, 2: 100, 3: 1}), list(range(52)))
    posts = of_type(hand.start(), "blind_posted")
    assert posts[1] == {
        "type": "blind_posted",
        "seat": 3,
        "blind": "big_blind",
        "amount": 1,
        "all_in": True,
    }
    assert hand.statuses[3] == "all_in"
    # Entering the pot still costs the full big blind (Robert's Rules).
    assert hand.legal_actions().call_amount == 2
    play(hand, "1 call", "2 call")
    assert hand.street is Street.FLOP
    pots = hand.pots
    assert [(pot.amount, pot.eligible) for pot in pots] == [(3, (1, 2, 3)), (2, (1, 2))]


def test_rule_2_8_a_short_small_blind_posts_what_it_has():
    hand = Hand(make_config({1: 100, 2: 1, 3: 100}, blinds=(5, 10)), list(range(52)))
    posts = of_type(hand.start(), "blind_posted")
    assert (posts[0]["seat"], posts[0]["amount"], posts[0]["all_in"]) == (2, 1, True)


def test_rule_3_1_four_betting_rounds():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    streets = [hand.street]
    events = []
    while not hand.is_over:
        legal = hand.legal_actions()
        events += act(hand, legal.seat, "check" if legal.can_check else "call")
        if hand.street is not streets[-1]:
            streets.append(hand.street)
    assert streets == [Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER]
    dealt = of_type(events, "street_dealt")
    assert [(d["street"], len(d["cards"])) for d in dealt] == [
        ("flop", 3),
        ("turn", 1),
        ("river", 1),
    ]
    acted_streets = {e["street"] for e in of_type(events, "player_acted")}
    assert acted_streets == {"preflop", "flop", "turn", "river"}


def test_rule_3_3_all_in_is_a_call_or_raise_of_the_whole_stack():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 30}))
    play(hand, "1 raise 7")  # pot raise: 2 + (3 + 2)
    play(hand, "2 raise 23")  # pot raise: 7 + (10 + 6)
    legal = hand.legal_actions()
    # Seat 3 has 28 behind its 2: it may call 21 or raise all-in to 30, not more.
    assert legal == (3, True, False, 21, "raise", 30, 30)
    events = play(hand, "3 raise 30")
    assert events[0]["all_in"] and hand.stacks[3] == 0


def test_rule_3_3_a_call_for_more_than_the_stack_is_an_all_in_call():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 10}))
    play(hand, "1 raise 7", "2 raise 23")
    legal = hand.legal_actions()
    assert (legal.call_amount, legal.bet_kind) == (8, None)
    events = play(hand, "3 call")
    assert (events[0]["amount"], events[0]["total"], events[0]["all_in"]) == (8, 10, True)


def test_rule_3_4_a_raise_makes_players_who_called_act_again_and_all_in_players_are_skipped():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100, 4: 20}, button=1))
    play(hand, "4 call", "1 call", "2 raise 8")
    assert hand.to_act == 3
    play(hand, "3 call")
    assert hand.to_act == 4  # limped, now faces the raise
    play(hand, "4 raise 20")  # all-in; the small blind's raise to 8 reopened the betting
    assert hand.to_act == 1
    play(hand, "1 call", "2 call", "3 call")
    # Seat 4 is all-in: the round is over without asking it again.
    assert hand.street is Street.FLOP
    assert hand.to_act == 2


def test_rule_3_4_round_does_not_end_until_every_player_has_acted():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    play(hand, "1 call", "2 call", "3 check")
    play(hand, "2 check", "3 check")
    assert hand.street is Street.FLOP and hand.to_act == 1
    play(hand, "1 check")
    assert hand.street is Street.TURN


def test_all_in_run_out_deals_the_rest_with_burns_and_turns_hands_up():
    config = make_config({1: 50, 2: 50})
    deck = list(range(52))
    hand = Hand(config, deck)
    hand.start()
    play(hand, "1 raise 6", "2 raise 18", "1 raise 50")
    events = play(hand, "2 call")
    types = [event["type"] for event in events]
    assert types == [
        "player_acted",
        "hands_turned_up",
        "street_dealt",
        "street_dealt",
        "street_dealt",
        "hand_shown",
        "hand_shown",
        "pot_awarded",
        "hand_ended",
    ]
    # Two players: 8 hole cards, burn 8, flop 9-11, burn 12, turn 13, burn 14, river 15.
    assert hand.board == (9, 10, 11, 13, 15)
    assert hand.is_over and hand.legal_actions() is None
    assert sum(hand.stacks.values()) == 100


def test_rule_3_8_table_stakes_only_the_starting_stack_plays():
    hand = new_hand(make_config({1: 40, 2: 1000, 3: 1000}))
    play(hand, "1 raise 7", "2 raise 23", "3 raise 39")
    legal = hand.legal_actions()
    # Seat 1 has 33 behind its 7: a full raise (to 55) is out of reach, all-in is not.
    assert (legal.call_amount, legal.bet_kind, legal.min_to, legal.max_to) == (32, "raise", 40, 40)
    assert_illegal(hand, Action(1, ActionKind.RAISE, 41), "Raise must be to 40")
    play(hand, "1 raise 40")
    assert hand.stacks[1] == 0
    play(hand, "2 call", "3 call")
    check_down(hand)
    total = sum(hand.stacks.values())
    assert total == 2040
    # Seat 1 can win at most 40 from each of the two others (RULES 4.1).
    assert hand.stacks[1] <= 120


def test_rule_3_8_chips_are_conserved_after_every_action():
    hand = new_hand(make_config({1: 100, 2: 60, 3: 250}, variant=LIMIT))
    total = 410
    while not hand.is_over:
        in_pots = sum(pot.amount for pot in hand.pots)
        assert sum(hand.stacks.values()) + in_pots + sum(hand.bets.values()) == total
        legal = hand.legal_actions()
        if legal.bet_kind:
            kind = ActionKind.BET if legal.bet_kind == "bet" else ActionKind.RAISE
            hand.apply(Action(legal.seat, kind, legal.max_to))
        else:
            kind = ActionKind.CALL if legal.call_amount else ActionKind.CHECK
            hand.apply(Action(legal.seat, kind))
    assert sum(hand.stacks.values()) == total


def test_hole_cards_given_by_the_deck_match_a_stacked_deal():
    config = make_config({1: 100, 2: 100, 3: 100})
    hand = new_hand(config, {1: "AsKsQsJs", 3: "2c3c4c5c"}, board="Ah Kh Qh Jh Th")
    assert hand.hole_cards(1) == parse_cards("AsKsQsJs")
    assert hand.hole_cards(3) == parse_cards("2c3c4c5c")
    check_down(hand)
    assert hand.board == parse_cards("AhKhQhJhTh")
