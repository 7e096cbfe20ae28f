"""Button, blinds and who is dealt in: RULES 2.1, 2.2, 2.3, 2.7 (moving button)."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engine.positions import HandPositions, SeatStatus, plan_next_hand


def player(seat, sat_order=None, *, ready=True, waiting=False, post_now=False):
    return SeatStatus(
        seat=seat,
        sat_order=seat if sat_order is None else sat_order,
        ready=ready,
        waiting_for_big_blind=waiting,
        wants_to_post_now=post_now,
    )


def plan(candidates, previous_button, seat_count=6):
    return plan_next_hand(
        seat_count=seat_count, previous_button=previous_button, candidates=candidates
    )


def play_hands(candidates, previous_button, hands, seat_count=6):
    """Plan hands in a row; an entrant dealt in becomes a regular, as the table does."""
    plans = []
    for _ in range(hands):
        hand = plan(candidates, previous_button, seat_count)
        plans.append(hand)
        candidates = [
            replace(c, waiting_for_big_blind=False, wants_to_post_now=False)
            if c.seat in hand.dealt_in
            else c
            for c in candidates
        ]
        previous_button = hand.button
    return plans


# --- RULES 2.1: the first hand ----------------------------------------------


def test_rule_2_1_first_player_to_sit_is_the_button_and_blinds_follow_left():
    hand = plan([player(2, 3), player(4, 1), player(6, 2)], previous_button=None)
    assert hand == HandPositions(
        button=4, small_blind_seat=6, big_blind_seat=2, dealt_in=(6, 2, 4), extra_big_blinds=()
    )


def test_rule_2_1_and_2_3_first_hand_heads_up_first_sitter_has_button_and_small_blind():
    hand = plan([player(1, 2), player(5, 1)], previous_button=None)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (5, 5, 1)
    assert hand.dealt_in == (1, 5)


def test_rule_2_1_first_hand_deals_in_everyone_ready_as_no_game_is_running():
    candidates = [player(1), player(2, waiting=True), player(3, ready=False), player(4)]
    hand = plan(candidates, previous_button=None)
    assert hand.dealt_in == (2, 4, 1)
    assert hand.extra_big_blinds == ()


def test_no_hand_with_fewer_than_two_ready_players():
    assert plan([], previous_button=None) is None
    assert plan([player(3)], previous_button=None) is None
    assert plan([player(3), player(4, ready=False)], previous_button=3) is None


# --- RULES 2.2: the button moves to the next player dealt in ----------------


def test_rule_2_2_button_moves_clockwise_to_the_next_player_dealt_in():
    candidates = [player(1), player(3), player(4, ready=False), player(5)]
    hand = plan(candidates, previous_button=1)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (3, 5, 1)
    assert 4 not in hand.dealt_in


def test_rule_2_2_button_moves_on_from_a_seat_its_player_left():
    hand = plan([player(1), player(4), player(6)], previous_button=2)
    assert hand.button == 4


def test_rule_2_2_button_skips_a_player_waiting_for_the_big_blind():
    candidates = [player(1), player(2, waiting=True), player(3), player(5)]
    assert plan(candidates, previous_button=1).button == 3


def test_rule_2_2_each_player_has_the_button_and_each_blind_once_per_orbit():
    seats = [1, 2, 4, 5, 6]
    hands = play_hands([player(s) for s in seats], previous_button=6, hands=10)
    assert [h.button for h in hands] == seats * 2
    assert sorted(h.small_blind_seat for h in hands[:5]) == seats
    assert sorted(h.big_blind_seat for h in hands[:5]) == seats


# --- RULES 2.3: the blinds ---------------------------------------------------


def test_rule_2_3_blinds_wrap_around_past_the_last_seat():
    hand = plan([player(1), player(5), player(6)], previous_button=5)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (6, 1, 5)
    assert hand.dealt_in == (1, 5, 6)


def test_rule_2_3_heads_up_the_button_posts_the_small_blind():
    hand = plan([player(2), player(5)], previous_button=2)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (5, 5, 2)
    assert hand.dealt_in == (2, 5)


def test_rule_2_3_heads_up_the_button_alternates():
    hands = play_hands([player(2), player(5)], previous_button=2, hands=4)
    assert [(h.button, h.big_blind_seat) for h in hands] == [(5, 2), (2, 5)] * 2


def test_rule_2_3_three_handed_down_to_heads_up_moving_button():
    """Seat 3 (last hand's big blind) leaves: the button simply moves on."""
    hand = plan([player(1), player(2)], previous_button=1)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 2, 1)


# --- RULES 2.7: joining a running game ---------------------------------------


def test_rule_2_7_waiting_player_is_dealt_in_when_the_big_blind_reaches_them():
    candidates = [player(1), player(2), player(3), player(4, waiting=True), player(5)]
    hand = plan(candidates, previous_button=1)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 3, 4)
    assert hand.dealt_in == (3, 4, 5, 1, 2)
    assert hand.extra_big_blinds == ()


def test_rule_2_7_waiting_player_sits_out_until_the_big_blind_comes():
    candidates = [player(1), player(2), player(3), player(4), player(5, waiting=True)]
    hand = plan(candidates, previous_button=1)
    assert hand.big_blind_seat == 4
    assert 5 not in hand.dealt_in


def test_rule_2_7_waiting_player_gets_the_big_blind_within_an_orbit():
    candidates = [player(1), player(2), player(3), player(5, waiting=True), player(6)]
    hands = play_hands(candidates, previous_button=3, hands=4)
    entries = [5 in hand.dealt_in for hand in hands]
    first_hand_in = entries.index(True)
    assert hands[first_hand_in].big_blind_seat == 5
    assert all(entries[first_hand_in:])


def test_rule_2_7_player_choosing_to_post_now_is_dealt_in_with_an_extra_big_blind():
    candidates = [player(s) for s in (1, 2, 3, 4)] + [player(6, waiting=True, post_now=True)]
    hand = plan(candidates, previous_button=1)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 3, 4)
    assert hand.dealt_in == (3, 4, 6, 1, 2)
    assert hand.extra_big_blinds == (6,)


def test_rule_2_7_posting_now_where_the_big_blind_falls_is_just_the_big_blind():
    candidates = [player(1), player(2), player(3), player(4, waiting=True, post_now=True)]
    hand = plan(candidates, previous_button=1)
    assert hand.big_blind_seat == 4
    assert hand.extra_big_blinds == ()


def test_rule_2_7_no_posting_between_the_button_and_the_big_blind():
    """Standard online/Robert's Rules: a newcomer there enters after the button passes."""
    candidates = [player(1), player(2, waiting=True, post_now=True), player(3), player(4)]
    hand = plan(candidates, previous_button=4)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (1, 3, 4)
    assert 2 not in hand.dealt_in
    after_button_passed = plan(candidates, previous_button=1)
    assert (after_button_passed.button, after_button_passed.big_blind_seat) == (3, 1)
    assert after_button_passed.extra_big_blinds == (2,)


def test_rule_2_7_returning_player_who_missed_the_big_blind_waits_like_a_newcomer():
    back_from_sitting_out = player(2, sat_order=1, waiting=True)
    candidates = [player(1, 2), back_from_sitting_out, player(3, 3), player(4, 4)]
    assert 2 not in plan(candidates, previous_button=4).dealt_in
    assert plan(candidates, previous_button=3).big_blind_seat == 2


def test_rule_2_7_heads_up_newcomer_behind_the_big_blind_takes_it():
    """Heads-up, seat 1 had the button; seat 3 joins between seat 1 and seat 5."""
    candidates = [player(1), player(5), player(3, waiting=True)]
    hand = plan(candidates, previous_button=1)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (5, 1, 3)
    assert hand.dealt_in == (1, 3, 5)


def test_rule_2_7_heads_up_newcomer_left_of_the_button_waits():
    candidates = [player(1), player(3), player(5, waiting=True, post_now=True)]
    hand = plan(candidates, previous_button=1)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (3, 3, 1)
    assert hand.dealt_in == (1, 3)
    next_hand = plan(candidates, previous_button=3)
    assert (next_hand.button, next_hand.small_blind_seat, next_hand.big_blind_seat) == (1, 3, 5)


def test_rule_2_7_lone_regular_and_newcomer_start_afresh_without_waiting():
    """One player cannot play alone, so no game is running to wait for."""
    hand = plan([player(2), player(4, waiting=True)], previous_button=2)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (4, 4, 2)
    assert hand.extra_big_blinds == ()


# --- Validation --------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat_count", "previous_button", "candidates"),
    [
        (1, None, [player(1)]),
        (11, None, [player(1), player(2)]),
        (6, None, [player(1), player(7)]),
        (6, None, [player(0), player(2)]),
        (6, 9, [player(1), player(2)]),
        (6, None, [player(1), player(1, 2)]),
    ],
)
def test_rule_1_1_rejects_impossible_seats(seat_count, previous_button, candidates):
    with pytest.raises(ValueError):
        plan(candidates, previous_button, seat_count)


# --- Properties over random tables -------------------------------------------


@st.composite
def tables(draw):
    seat_count = draw(st.integers(min_value=2, max_value=10))
    seats = draw(st.lists(st.integers(1, seat_count), unique=True, max_size=seat_count))
    sat_orders = draw(st.permutations(range(len(seats))))
    flags = st.booleans()
    candidates = [
        player(seat, order, ready=draw(flags), waiting=draw(flags), post_now=draw(flags))
        for seat, order in zip(seats, sat_orders)
    ]
    previous_button = draw(st.none() | st.integers(1, seat_count))
    return seat_count, previous_button, candidates


@given(tables())
def test_rules_2_1_to_2_7_hold_on_random_tables(table):
    seat_count, previous_button, candidates = table
    hand = plan(candidates, previous_button, seat_count)
    ready = {c.seat: c for c in candidates if c.ready}
    if hand is None:
        assert len(ready) < 2
        return
    regulars = {s for s, c in ready.items() if not c.waiting_for_big_blind}
    fresh_start = previous_button is None or len(regulars) < 2

    def left_of_button(seat):
        return (seat - hand.button - 1) % seat_count

    # Dealt in: ready players only, clockwise from the button's left, button last.
    assert set(hand.dealt_in) <= set(ready)
    assert list(hand.dealt_in) == sorted(set(hand.dealt_in), key=left_of_button)
    assert hand.dealt_in[-1] == hand.button
    # RULES 2.3: blinds are the first two players left of the button; heads-up
    # the button has the small blind.
    if len(hand.dealt_in) == 2:
        assert hand.small_blind_seat == hand.button
        assert hand.big_blind_seat == hand.dealt_in[0]
    else:
        assert hand.dealt_in[:2] == (hand.small_blind_seat, hand.big_blind_seat)
    assert set(hand.extra_big_blinds) <= set(hand.dealt_in) - {
        hand.button,
        hand.small_blind_seat,
        hand.big_blind_seat,
    }
    if fresh_start:
        assert set(hand.dealt_in) == set(ready)
        assert hand.extra_big_blinds == ()
        return
    # RULES 2.2: the button goes to the first regular after the last button.
    def after_previous_button(seat):
        return (seat - previous_button - 1) % seat_count

    assert hand.button == min(regulars - {previous_button}, key=after_previous_button)
    assert regulars <= set(hand.dealt_in)
    # RULES 2.7: an entrant is in only through the big blind or by posting one now.
    for seat in set(hand.dealt_in) - regulars:
        assert seat == hand.big_blind_seat or (
            ready[seat].wants_to_post_now and seat in hand.extra_big_blinds
        )
    assert all(ready[s].wants_to_post_now for s in hand.extra_big_blinds)
