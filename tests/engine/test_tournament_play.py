"""What tournament play changes in a hand: the big blind ante (RULES 8.4), players arriving at a
table dealt in at once (RULES 8.2) and away players (RULES 8.5)."""

from hypothesis import given
from hypothesis import strategies as st

from tables.engine import Action, ActionKind, LegalActions, away_action
from tables.engine.events import BlindKind
from tables.engine.positions import PlayedPositions, SeatStatus, plan_next_hand

from .support import make_config, new_hand, play

# --- RULES 8.4: the big blind ante ------------------------------------------------


def posts(hand):
    return [(e["seat"], e["blind"], e["amount"], e["all_in"]) for e in hand.events if e["type"] == "blind_posted"]


def test_rule_8_4_the_big_blind_posts_the_blind_first_and_then_the_ante():
    hand = new_hand(make_config({1: 1000, 2: 1000, 3: 1000}, blinds=(5, 10), big_blind_ante=10))
    assert posts(hand) == [
        (2, BlindKind.SMALL_BLIND, 5, False),
        (3, BlindKind.BIG_BLIND, 10, False),
        (3, BlindKind.BIG_BLIND_ANTE, 10, False),
    ]


def test_rule_8_4_a_big_blind_short_of_both_posts_the_blind_first_and_the_rest_as_ante():
    hand = new_hand(make_config({1: 1000, 2: 1000, 3: 14}, blinds=(5, 10), big_blind_ante=10))
    assert posts(hand)[1:] == [(3, BlindKind.BIG_BLIND, 10, False), (3, BlindKind.BIG_BLIND_ANTE, 4, True)]
    # The blind is whole, so the call stays 10 and the ante is no part of the bet.
    assert hand.bets == {1: 0, 2: 5, 3: 10}
    assert hand.legal_actions().call_amount == 10


def test_rule_8_4_the_ante_is_not_part_of_the_big_blinds_bet():
    hand = new_hand(make_config({1: 1000, 2: 1000, 3: 1000}, blinds=(5, 10), big_blind_ante=10))
    play(hand, "1 call", "2 call")
    # The big blind's option: nothing to call, its bet is the blind alone.
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.can_check
    assert hand.bets[3] == 10


def test_rule_8_4_the_ante_is_dead_money_in_the_main_pot_that_every_player_can_win():
    # The big blind is all-in for blind + ante (10 + 10); the others put in 40 each.
    # Only the blind is the big blind's level: the main pot is 3 x 10 + the 10 ante.
    hand = new_hand(make_config({1: 1000, 2: 1000, 3: 20}, blinds=(5, 10), big_blind_ante=10))
    play(hand, "1 raise 40", "2 call")
    pots = [(pot.amount, pot.eligible) for pot in hand.pots]
    assert pots == [(40, (1, 2, 3)), (60, (1, 2))]


def test_rule_8_4_the_ante_goes_to_the_winner_when_everyone_folds():
    hand = new_hand(make_config({1: 1000, 2: 1000, 3: 1000}, blinds=(5, 10), big_blind_ante=10))
    play(hand, "1 fold", "2 fold")
    assert hand.is_over
    assert hand.stacks == {1: 1000, 2: 995, 3: 1005}


@given(stacks=st.lists(st.integers(1, 60), min_size=3, max_size=6), ante=st.integers(1, 20))
def test_rule_8_4_chips_are_conserved_and_the_ante_never_counts_in_the_bet(stacks, ante):
    config = make_config(dict(enumerate(stacks, start=1)), blinds=(5, 10), big_blind_ante=ante)
    hand = new_hand(config)
    big_blind = config.big_blind_seat
    assert hand.bets[big_blind] == min(10, stacks[big_blind - 1])
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(Action(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL))
    assert sum(hand.stacks.values()) == sum(stacks)


# --- RULES 8.2: a player arriving at a tournament table -----------------------------


def seated(*seats, arriving=()):
    return [SeatStatus(seat=s, sat_order=s, waiting_for_big_blind=s in arriving, wants_to_post_now=True) for s in seats]


LAST = PlayedPositions(button=1, small_blind_seat=2, big_blind_seat=3)  # seats 1-4 of 9


def test_rule_8_2_an_arrival_after_the_big_blind_is_dealt_in_at_once_without_posting():
    hand = plan_next_hand(
        seat_count=9, previous=[LAST], candidates=seated(1, 2, 3, 4, 7, arriving=(7,)), tournament=True
    )
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 3, 4)
    assert 7 in hand.dealt_in
    assert hand.extra_big_blinds == ()


def test_rule_8_2_an_arrival_between_the_button_and_the_small_blind_waits_for_the_button():
    # Last hand: button 2, small blind 3, big blind 4; the next: button 3, small blind 4, big blind 5.
    last = PlayedPositions(button=2, small_blind_seat=3, big_blind_seat=4)
    candidates = seated(1, 2, 3, 4, 5, 6, arriving=(6,))
    candidates = [c for c in candidates if c.seat != 3] + [SeatStatus(seat=3, sat_order=9, waiting_for_big_blind=True)]
    # Seat 3's player busted and a moved player took the seat: the button's seat.
    hand = plan_next_hand(seat_count=9, previous=[last], candidates=candidates, tournament=True)
    assert hand.big_blind_seat == 5
    assert 3 not in hand.dealt_in  # on the button's seat: waits for the button to pass (RULES 8.2)
    assert 6 in hand.dealt_in  # after the big blind: dealt in at once
    assert hand.extra_big_blinds == ()


def test_rule_8_2_an_arrival_in_the_small_blind_position_waits():
    # The last big blind (seat 3) busted and a moved player sits there: it is the small blind's place.
    candidates = [SeatStatus(seat=s, sat_order=s) for s in (1, 2, 4, 5)] + [
        SeatStatus(seat=3, sat_order=9, waiting_for_big_blind=True)
    ]
    hand = plan_next_hand(seat_count=9, previous=[LAST], candidates=candidates, tournament=True)
    assert hand.big_blind_seat == 4
    assert 3 not in hand.dealt_in


def test_rule_8_2_no_choice_to_post_a_big_blind_at_a_tournament_table():
    hand = plan_next_hand(
        seat_count=9, previous=[LAST], candidates=seated(1, 2, 3, 4, 7, arriving=(7,)), tournament=True
    )
    assert hand.extra_big_blinds == ()
    cash = plan_next_hand(seat_count=9, previous=[LAST], candidates=seated(1, 2, 3, 4, 7, arriving=(7,)))
    assert cash.extra_big_blinds == (7,)  # cash tables keep RULES 2.7


# Heads-up (RULES 8.11, 2.10): two regulars, seats 1 and 4 of 6; seat 1 had the button and the
# small blind, seat 4 the big blind. A player moved to the table is dealt in at once (RULES 8.2)
# wherever the big blind reaches them; only the seat that would be the button waits, one hand.
HEADS_UP = PlayedPositions(button=1, small_blind_seat=1, big_blind_seat=4)


def test_rules_8_2_and_8_11_an_arrival_at_a_heads_up_table_the_big_blind_reaches_is_dealt_in_at_once():
    hand = plan_next_hand(seat_count=6, previous=[HEADS_UP], candidates=seated(1, 4, 5, arriving=(5,)), tournament=True)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (1, 4, 5)
    assert hand.dealt_in == (4, 5, 1)  # three-handed at once: the big blind moved on to them (RULES 2.9)
    assert hand.extra_big_blinds == ()


def test_rules_8_2_and_8_11_an_arrival_on_the_heads_up_button_seat_waits_one_hand_then_posts_the_big_blind():
    # Seat 2, between the last small blind (seat 1) and big blind (seat 4): dealt in, they would be
    # the button (seat 4 posts the small blind, seat 1 the big one), which no arrival takes (RULES 8.2).
    candidates = seated(1, 2, 4, arriving=(2,))
    hand = plan_next_hand(seat_count=6, previous=[HEADS_UP], candidates=candidates, tournament=True)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (4, 4, 1)
    assert 2 not in hand.dealt_in
    played = PlayedPositions(
        button=hand.button, small_blind_seat=hand.small_blind_seat, big_blind_seat=hand.big_blind_seat
    )
    following = plan_next_hand(seat_count=6, previous=[played, HEADS_UP], candidates=candidates, tournament=True)
    assert (following.small_blind_seat, following.big_blind_seat) == (1, 2)  # the button passed: they play
    assert 2 in following.dealt_in and following.extra_big_blinds == ()


# --- RULES 8.5: an away player checks if they can and folds otherwise --------------


def test_rule_8_5_an_away_player_checks_when_they_can():
    legal = LegalActions(3, True, True, 0, None, None, None)
    assert away_action(legal) == Action(3, ActionKind.CHECK)


def test_rule_8_5_an_away_player_folds_when_there_is_something_to_call():
    legal = LegalActions(3, True, False, 10, None, None, None)
    assert away_action(legal) == Action(3, ActionKind.FOLD)
