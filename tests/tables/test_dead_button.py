"""Players coming and going through the services: the dead-button rule, going heads-up and
missed blinds as the stored hands record them (RULES 2.9, 2.10, 2.11)."""

import pytest

from tables import services
from tables.models import Hand, HandEvent, Seat
from tables.selectors.hands import rebuild

from ..support.tables import act, fold_to_the_end, running_hand, sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def five_handed(make_player, make_table):
    """Seats 1-5 taken in order at a Pot Limit 1/2 table; no hand yet. Seat 1 sat first."""
    table = make_table()
    players = {number: make_player(f"p{number}") for number in range(1, 6)}
    for number, player in players.items():
        sit(table, player, number)
    return table, players


def start(table) -> Hand:
    hand = services.start_hand_if_due(table_id=table.pk)
    assert hand is not None
    return hand


def positions(hand: Hand):
    return hand.config["button"], hand.config["small_blind_seat"], hand.config["big_blind_seat"]


def posts(hand: Hand):
    return [
        (e.payload["seat"], e.payload["blind"], e.payload["amount"])
        for e in HandEvent.objects.filter(hand=hand, type="blind_posted")
    ]


def dealt(hand: Hand):
    return [seat["seat"] for seat in hand.config["seats"]]


def test_rule_2_9_the_big_blind_leaving_leaves_a_dead_small_blind_then_a_dead_button(five_handed, assert_audit_clean):
    table, players = five_handed
    first = start(table)
    assert positions(first) == (1, 2, 3)
    fold_to_the_end(table, players)
    services.leave(user=players[3], table_id=table.pk)

    second = start(table)
    assert positions(second) == (2, None, 4)  # seat 4 is next in line for the big blind
    assert second.button == 2
    assert posts(second) == [(4, "big_blind", 2)]  # nobody posts the small blind
    assert dealt(second) == [1, 2, 4, 5]
    fold_to_the_end(table, players)

    third = start(table)
    assert positions(third) == (3, 4, 5)  # the button is dead on seat 3's empty seat
    assert 3 not in dealt(third)
    assert posts(third) == [(4, "small_blind", 1), (5, "big_blind", 2)]
    assert rebuild(third).to_act == 1  # left of the big blind
    assert_audit_clean()


def test_rule_2_9_the_small_blind_leaving_mid_hand_leaves_a_dead_button(five_handed, assert_audit_clean):
    table, players = five_handed
    start(table)
    services.leave(user=players[2], table_id=table.pk)  # folded when the turn comes, cashed out at the end
    fold_to_the_end(table, players)
    assert not Seat.objects.filter(table=table, number=2).exists()

    second = start(table)
    assert positions(second) == (2, 3, 4)
    assert dealt(second) == [1, 3, 4, 5]
    assert posts(second) == [(3, "small_blind", 1), (4, "big_blind", 2)]
    assert rebuild(second).to_act == 5
    for seat, kind in ((5, "call"), (1, "call"), (3, "call"), (4, "check")):
        act(table, players[seat], kind)
    # After the flop the small blind acts first and seat 1, right of the dead button, last.
    assert rebuild(running_hand(table)).to_act == 3
    assert_audit_clean()


def test_rule_2_10_going_heads_up_nobody_posts_the_big_blind_twice(make_player, make_table, assert_audit_clean):
    """Seats 1-3: seat 1 (button) leaves after the first hand; seat 3 had the big blind."""
    table = make_table()
    players = {number: make_player() for number in (1, 2, 3)}
    for number, player in players.items():
        sit(table, player, number)
    assert positions(start(table)) == (1, 2, 3)
    fold_to_the_end(table, players)
    services.leave(user=players[1], table_id=table.pk)

    second = start(table)
    assert positions(second) == (3, 3, 2)  # RULES 2.3: the button posts the small blind
    assert posts(second) == [(3, "small_blind", 1), (2, "big_blind", 2)]
    assert rebuild(second).to_act == 3  # heads-up the button acts first before the flop
    fold_to_the_end(table, players)
    assert positions(start(table)) == (2, 2, 3)
    assert_audit_clean()


def test_rule_2_11_coming_back_posts_one_live_big_blind_and_no_dead_small_blind(five_handed, assert_audit_clean):
    """Seat 4 sits out for two hands, missing the big blind, and comes back posting now."""
    table, players = five_handed
    start(table)  # 1/2/3
    services.sit_out(user=players[4], table_id=table.pk)
    fold_to_the_end(table, players)
    missed = start(table)
    assert positions(missed) == (2, 3, 5)  # the big blind passes seat 4
    fold_to_the_end(table, players)
    also_missed = start(table)
    assert positions(also_missed) == (3, 5, 1)
    fold_to_the_end(table, players)
    services.sit_in(user=players[4], table_id=table.pk, post_big_blind_now=True)

    back = start(table)
    assert positions(back) == (5, 1, 2)
    assert posts(back) == [(1, "small_blind", 1), (2, "big_blind", 2), (4, "extra_big_blind", 2)]
    assert rebuild(back).to_act == 3
    for seat, kind in ((3, "call"), (4, "check"), (5, "call"), (1, "call")):
        act(table, players[seat], kind)
    engine = rebuild(running_hand(table))
    assert engine.to_act == 2  # the big blind's option; seat 4's big blind counted as its call
    assert engine.contributed[4] == 2
    assert_audit_clean()


def test_rule_2_11_coming_back_to_wait_deals_in_when_the_big_blind_arrives(five_handed, assert_audit_clean):
    table, players = five_handed
    start(table)  # 1/2/3
    services.sit_out(user=players[4], table_id=table.pk)
    fold_to_the_end(table, players)
    start(table)  # 2/3/5: seat 4 misses the big blind
    fold_to_the_end(table, players)
    services.sit_in(user=players[4], table_id=table.pk, post_big_blind_now=False)
    hands = []
    for _ in range(4):
        hand = start(table)
        hands.append((positions(hand), 4 in dealt(hand)))
        fold_to_the_end(table, players)
    assert hands == [((3, 5, 1), False), ((5, 1, 2), False), ((1, 2, 3), False), ((2, 3, 4), True)]
    assert_audit_clean()
