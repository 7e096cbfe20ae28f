"""Button, blinds and who is dealt in: RULES 2.1, 2.2, 2.3, 2.7, and the dead-button
rule with its heads-up and missed-blind cases, RULES 2.9, 2.10, 2.11.

Orbit-long properties over many simulated hands are in ``test_orbits.py``.
"""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engine.positions import HandPositions, PlayedPositions, SeatStatus, plan_next_hand

from .support import config_for_plan


def player(seat, sat_order=None, *, ready=True, waiting=False, post_now=False):
    return SeatStatus(
        seat=seat,
        sat_order=seat if sat_order is None else sat_order,
        ready=ready,
        waiting_for_big_blind=waiting,
        wants_to_post_now=post_now,
    )


def played(button, small_blind, big_blind):
    return PlayedPositions(button=button, small_blind_seat=small_blind, big_blind_seat=big_blind)


def as_played(hand: HandPositions) -> PlayedPositions:
    return played(hand.button, hand.small_blind_seat, hand.big_blind_seat)


def plan(candidates, previous=(), seat_count=6):
    return plan_next_hand(seat_count=seat_count, previous=previous, candidates=candidates)


def positions(hand):
    return (hand.button, hand.small_blind_seat, hand.big_blind_seat)


def play_hands(candidates, previous, hands, seat_count=6):
    """Plan hands in a row; an entrant dealt in becomes a regular, as the table does."""
    plans = []
    previous = list(previous)
    for _ in range(hands):
        hand = plan(candidates, previous, seat_count)
        plans.append(hand)
        candidates = [
            replace(c, waiting_for_big_blind=False, wants_to_post_now=False) if c.seat in hand.dealt_in else c
            for c in candidates
        ]
        previous = [as_played(hand), *previous[:1]]
    return plans


FIVE_HANDED = played(1, 2, 3)  # seats 1-5: button 1, small blind 2, big blind 3


def five_handed_without(*gone):
    return [player(seat) for seat in (1, 2, 3, 4, 5) if seat not in gone]


# --- RULES 2.1: the first hand ----------------------------------------------


def test_rule_2_1_first_player_to_sit_is_the_button_and_blinds_follow_left():
    hand = plan([player(2, 3), player(4, 1), player(6, 2)])
    assert hand == HandPositions(
        button=4, small_blind_seat=6, big_blind_seat=2, dealt_in=(6, 2, 4), extra_big_blinds=()
    )


def test_rule_2_1_and_2_3_first_hand_heads_up_first_sitter_has_button_and_small_blind():
    hand = plan([player(1, 2), player(5, 1)])
    assert positions(hand) == (5, 5, 1)
    assert hand.dealt_in == (1, 5)


def test_rule_2_1_first_hand_deals_in_everyone_ready_as_no_game_is_running():
    candidates = [player(1), player(2, waiting=True), player(3, ready=False), player(4)]
    hand = plan(candidates)
    assert hand.dealt_in == (2, 4, 1)
    assert hand.extra_big_blinds == ()


def test_no_hand_with_fewer_than_two_ready_players():
    assert plan([]) is None
    assert plan([player(3)]) is None
    assert plan([player(3), player(4, ready=False)], [played(3, 3, 4)]) is None


# --- RULES 2.2: the button moves on -------------------------------------------


def test_rule_2_2_button_moves_clockwise_to_the_next_player_dealt_in():
    candidates = [player(1), player(3), player(4, ready=False), player(5)]
    hand = plan(candidates, [played(1, 3, 5)])
    assert positions(hand) == (3, 5, 1)
    assert 4 not in hand.dealt_in


def test_rule_2_2_and_2_9_the_buttons_player_leaving_changes_nothing_for_the_others():
    """The last button (seat 2) left: the blinds and the button move on one player as usual."""
    hand = plan([player(1), player(4), player(6)], [played(2, 4, 6)])
    assert positions(hand) == (4, 6, 1)
    assert not hand.has_dead_button


def test_rule_2_2_button_skips_a_player_waiting_for_the_big_blind():
    candidates = [player(1), player(2, waiting=True), player(3), player(5)]
    assert plan(candidates, [played(1, 3, 5)]).button == 3


def test_rule_2_2_each_player_has_the_button_and_each_blind_once_per_orbit():
    seats = [1, 2, 4, 5, 6]
    hands = play_hands([player(s) for s in seats], [played(6, 1, 2)], hands=10)
    assert [h.button for h in hands] == seats * 2
    assert sorted(h.small_blind_seat for h in hands[:5]) == seats
    assert sorted(h.big_blind_seat for h in hands[:5]) == seats


# --- RULES 2.3: the blinds ---------------------------------------------------


def test_rule_2_3_blinds_wrap_around_past_the_last_seat():
    hand = plan([player(1), player(5), player(6)], [played(5, 6, 1)])
    assert positions(hand) == (6, 1, 5)
    assert hand.dealt_in == (1, 5, 6)


def test_rule_2_3_heads_up_the_button_posts_the_small_blind():
    hand = plan([player(2), player(5)], [played(2, 2, 5)])
    assert positions(hand) == (5, 5, 2)
    assert hand.dealt_in == (2, 5)


def test_rule_2_3_heads_up_the_button_alternates():
    hands = play_hands([player(2), player(5)], [played(2, 2, 5)], hands=4)
    assert [(h.button, h.big_blind_seat) for h in hands] == [(5, 2), (2, 5)] * 2


# --- RULES 2.9: players leaving (dead-button rule) ----------------------------


def test_rule_2_9_big_blind_leaves_next_hand_has_a_dead_small_blind():
    """Seat 3 (big blind) leaves: seat 4 is next in line for the big blind; nobody posts the small
    blind, and seat 2 takes the button it was due. (Moving the button instead gave 2/4/5: seat 4
    skipped the big blind and reached the button without paying it.)"""
    hand = plan(five_handed_without(3), [FIVE_HANDED])
    assert positions(hand) == (2, None, 4)
    assert hand.dealt_in == (4, 5, 1, 2)
    config_for_plan(hand)  # the engine accepts a hand without a small blind


def test_rule_2_9_small_blind_leaves_next_hand_has_a_dead_button():
    """Seat 2 (small blind) leaves: the big blind still goes to seat 4, seat 3 posts the small
    blind after its big blind, and the button lands on seat 2's empty seat. (Moving the button
    gave 3/4/5: seat 4 skipped the big blind.)"""
    hand = plan(five_handed_without(2), [FIVE_HANDED])
    assert positions(hand) == (2, 3, 4)
    assert hand.has_dead_button
    assert hand.dealt_in == (3, 4, 5, 1)  # seat 1, right of the dead button, acts last after the flop
    config_for_plan(hand)


def test_rule_2_9_after_a_dead_small_blind_the_button_goes_to_the_empty_seat():
    """Robert's Rules: the button follows the small blind's position, so after the dead small
    blind of the departed seat 3 the button is dead on seat 3, and seat 2 acts last twice."""
    after_dead_small_blind = played(2, None, 4)
    hand = plan(five_handed_without(3), [after_dead_small_blind, FIVE_HANDED])
    assert positions(hand) == (3, 4, 5)
    assert hand.has_dead_button
    assert hand.dealt_in == (4, 5, 1, 2)


def test_rule_2_9_the_orbit_goes_on_normally_after_the_dead_button():
    hands = play_hands(five_handed_without(3), [FIVE_HANDED], hands=6)
    assert [positions(h) for h in hands] == [
        (2, None, 4),  # dead small blind
        (3, 4, 5),  # dead button on the empty seat 3
        (4, 5, 1),
        (5, 1, 2),
        (1, 2, 4),
        (2, 4, 5),
    ]
    assert [h.big_blind_seat for h in hands[:4]] == [4, 5, 1, 2]  # each player once, nobody twice


def test_rule_2_9_a_big_blind_sitting_out_leaves_the_small_blind_dead():
    candidates = [player(1), player(2), player(3, ready=False), player(4), player(5)]
    assert positions(plan(candidates, [FIVE_HANDED])) == (2, None, 4)


def test_rule_2_9_the_big_blind_passes_a_player_sitting_out_who_then_misses_it():
    candidates = [player(1), player(2), player(3), player(4, ready=False), player(5)]
    hand = plan(candidates, [FIVE_HANDED])
    assert positions(hand) == (2, 3, 5)
    assert 4 not in hand.dealt_in


def test_rule_2_9_a_newcomer_in_the_departed_big_blinds_seat_posts_no_small_blind():
    """Seat 3 changed hands: the newcomer cannot post between the button and the big blind."""
    candidates = [*five_handed_without(3), player(3, 9, waiting=True, post_now=True)]
    hand = plan(candidates, [FIVE_HANDED])
    assert positions(hand) == (2, None, 4)
    assert 3 not in hand.dealt_in


def test_rule_2_9_a_newcomer_on_the_dead_buttons_seat_comes_in_once_the_button_passes():
    candidates = [*five_handed_without(2), player(2, 9, waiting=True, post_now=True)]
    hands = play_hands(candidates, [FIVE_HANDED], hands=2)
    assert positions(hands[0]) == (2, 3, 4) and 2 not in hands[0].dealt_in
    assert positions(hands[1]) == (3, 4, 5) and hands[1].extra_big_blinds == (2,)


def test_rule_2_9_two_leaving_at_once_still_gives_the_big_blind_to_the_next_in_line():
    hand = plan([player(1), player(4), player(5), player(6)], [played(1, 2, 3)])
    assert positions(hand) == (2, None, 4)
    assert hand.dealt_in == (4, 5, 6, 1)


def test_rule_2_9_a_dead_small_blind_without_an_earlier_hand_puts_the_button_on_the_right():
    """With no record of where the small blind was due, the nearest regular right of the blinds
    takes the button (the plan stays playable)."""
    hand = plan(five_handed_without(3), [played(2, None, 4)])
    assert positions(hand) == (2, 4, 5)


def test_rule_2_9_recorded_positions_that_do_not_fit_still_give_a_playable_plan():
    hand = plan([player(1), player(2), player(3)], [played(3, 2, 1), played(1, 3, 2)])
    config_for_plan(hand)
    assert hand.big_blind_seat == 2


# --- RULES 2.10: going heads-up ------------------------------------------------


def test_rule_2_10_button_leaves_going_heads_up_the_big_blind_does_not_post_twice():
    """Seats 1-3, seat 1 (button) leaves: seat 3 had the big blind, so seat 2 posts it and seat 3
    has the button and the small blind. (Moving the button gave 2/2/3: seat 3's big blind twice.)"""
    hand = plan([player(2), player(3)], [played(1, 2, 3)])
    assert positions(hand) == (3, 3, 2)
    assert hand.dealt_in == (2, 3)
    config_for_plan(hand)


def test_rule_2_10_big_blind_leaves_going_heads_up():
    hand = plan([player(1), player(2)], [played(1, 2, 3)])
    assert positions(hand) == (2, 2, 1)


def test_rule_2_10_small_blind_leaves_going_heads_up():
    hand = plan([player(1), player(3)], [played(1, 2, 3)])
    assert positions(hand) == (3, 3, 1)


def test_rule_2_10_from_four_to_two_and_then_the_heads_up_order_of_rule_2_3():
    hands = play_hands([player(1), player(2)], [played(1, 2, 3)], hands=4)
    assert [positions(h) for h in hands] == [(2, 2, 1), (1, 1, 2), (2, 2, 1), (1, 1, 2)]


def test_rule_2_10_a_new_game_after_heads_up_gives_the_big_blind_to_the_other_player():
    """Heads-up seat 1 (button) left seat 3 alone; a newcomer at seat 2 starts a new game with
    seat 3, who had the big blind, so the newcomer posts it. (Moving the button gave 2/2/3.)"""
    hand = plan([player(2, 9, waiting=True), player(3)], [played(1, 1, 3)])
    assert positions(hand) == (3, 3, 2)


# --- RULES 2.7 and 2.11: joining, and coming back --------------------------------


def test_rule_2_7_waiting_player_is_dealt_in_when_the_big_blind_reaches_them():
    candidates = [player(1), player(2), player(3), player(4, waiting=True), player(5)]
    hand = plan(candidates, [FIVE_HANDED])
    assert positions(hand) == (2, 3, 4)
    assert hand.dealt_in == (3, 4, 5, 1, 2)
    assert hand.extra_big_blinds == ()


def test_rule_2_7_waiting_player_sits_out_until_the_big_blind_comes():
    candidates = [player(1), player(2), player(3), player(4), player(5, waiting=True)]
    hand = plan(candidates, [FIVE_HANDED])
    assert hand.big_blind_seat == 4
    assert 5 not in hand.dealt_in


def test_rule_2_7_waiting_player_gets_the_big_blind_within_an_orbit():
    candidates = [player(1), player(2), player(3), player(5, waiting=True), player(6)]
    hands = play_hands(candidates, [played(3, 6, 1)], hands=4)
    entries = [5 in hand.dealt_in for hand in hands]
    first_hand_in = entries.index(True)
    assert hands[first_hand_in].big_blind_seat == 5
    assert all(entries[first_hand_in:])


def test_rule_2_7_and_2_11_posting_now_is_one_live_big_blind_and_no_small_blind():
    candidates = [player(s) for s in (1, 2, 3, 4)] + [player(6, waiting=True, post_now=True)]
    hand = plan(candidates, [FIVE_HANDED])
    assert positions(hand) == (2, 3, 4)
    assert hand.dealt_in == (3, 4, 6, 1, 2)
    assert hand.extra_big_blinds == (6,)
    config = config_for_plan(hand)
    assert [setup.seat for setup in config.seats if setup.posts_big_blind] == [6]


def test_rule_2_7_posting_now_where_the_big_blind_falls_is_just_the_big_blind():
    candidates = [player(1), player(2), player(3), player(4, waiting=True, post_now=True)]
    hand = plan(candidates, [FIVE_HANDED])
    assert hand.big_blind_seat == 4
    assert hand.extra_big_blinds == ()


def test_rule_2_7_no_posting_between_the_button_and_the_big_blind():
    """Standard online/Robert's Rules: a newcomer there enters after the button passes."""
    candidates = [player(1), player(2, waiting=True, post_now=True), player(3), player(4)]
    first = plan(candidates, [played(4, 1, 3)])
    assert positions(first) == (1, 3, 4)
    assert 2 not in first.dealt_in
    after_button_passed = plan(candidates, [as_played(first), played(4, 1, 3)])
    assert positions(after_button_passed) == (3, 4, 1)
    assert after_button_passed.extra_big_blinds == (2,)


def test_rule_2_11_returning_player_who_missed_the_big_blind_waits_or_posts_one():
    back_from_sitting_out = player(2, sat_order=1, waiting=True)
    candidates = [player(1, 2), back_from_sitting_out, player(3, 3), player(4, 4)]
    assert 2 not in plan(candidates, [played(4, 1, 3)]).dealt_in
    assert plan(candidates, [played(3, 4, 1)]).big_blind_seat == 2
    posting = [player(1, 2), replace(back_from_sitting_out, wants_to_post_now=True), player(3, 3), player(4, 4)]
    hand = plan(posting, [played(1, 3, 4)])
    assert positions(hand) == (3, 4, 1)
    assert hand.extra_big_blinds == (2,)  # one big blind; the small blind is seat 4's, not a dead one


def test_rule_2_7_and_2_10_heads_up_newcomer_behind_the_big_blind_waits_for_it():
    """Heads-up, seat 1 had the button, seat 5 the big blind; seat 3 joins. The big blind goes to
    seat 1 (next after seat 5), then reaches seat 3. (Moving the button dealt seat 3 in at once,
    with seat 1 posting the small blind twice and seat 5 skipping it.)"""
    candidates = [player(1), player(5), player(3, waiting=True)]
    hands = play_hands(candidates, [played(1, 1, 5)], hands=2)
    assert positions(hands[0]) == (5, 5, 1) and hands[0].dealt_in == (1, 5)
    assert positions(hands[1]) == (5, 1, 3) and hands[1].dealt_in == (1, 3, 5)


def test_rule_2_7_heads_up_newcomer_next_in_line_takes_the_big_blind_at_once():
    """Heads-up, seat 3 had the big blind; the newcomer at seat 5 is next in line for it."""
    candidates = [player(1), player(3), player(5, waiting=True)]
    hand = plan(candidates, [played(1, 1, 3)])
    assert positions(hand) == (1, 3, 5)
    assert hand.dealt_in == (3, 5, 1)


def test_rule_2_7_no_posting_into_a_heads_up_hand():
    """Seat 5 would sit between the big blind and the button; the big blind reaches it next hand."""
    candidates = [player(1), player(3), player(5, waiting=True, post_now=True)]
    hands = play_hands(candidates, [played(3, 3, 1)], hands=2)
    assert positions(hands[0]) == (1, 1, 3) and hands[0].dealt_in == (3, 1)
    assert positions(hands[1]) == (1, 3, 5) and hands[1].extra_big_blinds == ()


def test_rule_2_7_lone_regular_and_newcomer_start_afresh_without_waiting():
    """One player cannot play alone, so no game is running to wait for."""
    hand = plan([player(2), player(4, waiting=True)], [played(2, 2, 5)])
    assert positions(hand) == (4, 4, 2)
    assert hand.extra_big_blinds == ()


def test_rule_2_9_a_new_game_has_both_blinds_and_a_live_button():
    hand = plan([player(1), player(2, waiting=True), player(4, waiting=True)], [played(6, 1, 3)])
    assert positions(hand) == (1, 2, 4)
    assert hand.dealt_in == (2, 4, 1)


# --- Validation --------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat_count", "previous", "candidates"),
    [
        (1, [], [player(1)]),
        (11, [], [player(1), player(2)]),
        (6, [], [player(1), player(7)]),
        (6, [], [player(0), player(2)]),
        (6, [played(9, 1, 2)], [player(1), player(2)]),
        (6, [played(1, 7, 2)], [player(1), player(2)]),
        (6, [played(1, 2, 3), played(1, 2, 0)], [player(1), player(2)]),
        (6, [], [player(1), player(1, 2)]),
    ],
)
def test_rule_1_1_rejects_impossible_seats(seat_count, previous, candidates):
    with pytest.raises(ValueError):
        plan(candidates, previous, seat_count)


# --- Properties over random tables -------------------------------------------


@st.composite
def tables(draw):
    seat_count = draw(st.integers(min_value=2, max_value=10))
    seats = draw(st.lists(st.integers(1, seat_count), unique=True, max_size=seat_count))
    sat_orders = draw(st.permutations(range(len(seats))))
    flags = st.booleans()
    candidates = [
        player(seat, order, ready=draw(flags), waiting=draw(flags), post_now=draw(flags))
        for seat, order in zip(seats, sat_orders, strict=True)
    ]
    any_seat = st.integers(1, seat_count)
    recorded = st.builds(played, any_seat, st.none() | any_seat, any_seat)
    previous = draw(st.lists(recorded, max_size=2))
    return seat_count, previous, candidates


@given(tables())
def test_rules_2_1_to_2_11_hold_on_random_tables(table):
    """Whatever the recorded positions say (even nonsense), the plan is playable and
    follows RULES 2.3, 2.7, 2.9 and 2.11."""
    seat_count, previous, candidates = table
    hand = plan(candidates, previous, seat_count)
    ready = {c.seat: c for c in candidates if c.ready}
    if hand is None:
        assert len(ready) < 2
        return
    config_for_plan(hand)  # RULES 2.3: heads-up the button posts the small blind; blinds are dealt in
    regulars = {s for s, c in ready.items() if not c.waiting_for_big_blind}
    new_game = not previous or len(regulars) < 2

    def left_of_button(seat):
        return (seat - hand.button - 1) % seat_count

    # Dealt in: ready players only, clockwise from the button's left; a live button is last.
    assert set(hand.dealt_in) <= set(ready)
    assert list(hand.dealt_in) == sorted(set(hand.dealt_in), key=left_of_button)
    assert hand.has_dead_button or hand.dealt_in[-1] == hand.button
    # RULES 2.3 and 2.9: the blinds are the first players left of the button (a dead small
    # blind leaves the big blind first); heads-up the button has the small blind.
    if len(hand.dealt_in) == 2:
        assert hand.small_blind_seat == hand.button
        assert hand.big_blind_seat == hand.dealt_in[0]
    elif hand.small_blind_seat is None:
        assert hand.dealt_in[0] == hand.big_blind_seat
    else:
        assert hand.dealt_in[:2] == (hand.small_blind_seat, hand.big_blind_seat)
    assert set(hand.extra_big_blinds) <= set(hand.dealt_in) - {
        hand.button,
        hand.small_blind_seat,
        hand.big_blind_seat,
    }
    if not previous:
        assert set(hand.dealt_in) == set(ready)
        return
    # RULES 2.9: the big blind goes to the first ready player after the last big blind.
    last = previous[0]

    def after_last_big_blind(seat):
        return (seat - last.big_blind_seat - 1) % seat_count

    assert hand.big_blind_seat == min(set(ready) - {last.big_blind_seat}, key=after_last_big_blind)
    if new_game:
        assert set(hand.dealt_in) == set(ready)
        assert hand.extra_big_blinds == () and not hand.has_dead_button
        return
    assert regulars <= set(hand.dealt_in)
    # RULES 2.7, 2.11: an entrant is in only through the big blind or by posting one now.
    for seat in set(hand.dealt_in) - regulars:
        assert seat == hand.big_blind_seat or (ready[seat].wants_to_post_now and seat in hand.extra_big_blinds)
    assert all(ready[s].wants_to_post_now for s in hand.extra_big_blinds)
