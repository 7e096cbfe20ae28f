"""Fixtures: hands played through the services with arranged decks (helpers in tests/support/history.py)."""

import uuid

import pytest

from tables import services
from tests.support.history import (
    ALICE_CARDS,
    BOB_CARDS,
    CAROL_CARDS,
    SHOWDOWN_BOARD,
    Played,
    arranged_deck,
    play_to_showdown,
    start,
)
from tests.support.tables import act, sit


@pytest.fixture
def seat_three(make_player, make_table):
    """alice, bob and carol seated at a Pot Limit 1/2 table with 200 each; no hand yet."""
    table = make_table()
    players = {name: make_player(name) for name in ("alice", "bob", "carol")}
    for number, name in enumerate(players, start=1):
        sit(table, players[name], number, 200)
    return table, players


@pytest.fixture
def showdown_hand(seat_three) -> Played:
    table, players = seat_three
    return Played(table, play_to_showdown(table, players), players)


@pytest.fixture
def hand_on_the_flop(seat_three) -> Played:
    """The same deal, stopped on the flop with alice to act."""
    table, players = seat_three
    hand = start(table, arranged_deck([BOB_CARDS, CAROL_CARDS, ALICE_CARDS], SHOWDOWN_BOARD))
    act(table, players["alice"], "raise", 6)
    act(table, players["bob"], "fold")
    act(table, players["carol"], "call")
    act(table, players["carol"], "check")
    hand.refresh_from_db()
    return Played(table, hand, players)


@pytest.fixture
def all_in_hand(make_player, make_table) -> Played:
    """Heads-up: dan (seat 1: button and small blind, 150 chips) and erin (seat 4, 200) get all-in
    on the turn; erin's uncalled 8 comes back, the hands are turned up before the river and erin's
    set of deuces beats dan's ace high. Pot 300 to erin: dan 0, erin 350."""
    table = make_table()
    dan, erin = make_player("dan"), make_player("erin")
    sit(table, dan, 1, 150)
    sit(table, erin, 4, 200)
    # Dealing starts left of the button: erin first.
    hand = start(table, arranged_deck(["2c 2d 7s 8s", "Ah Kh Qh Jh"], "2s 9h Tc 4d 5c"))
    act(table, dan, "call")
    act(table, erin, "check")
    act(table, erin, "bet", 4)  # flop
    act(table, dan, "raise", 16)
    act(table, erin, "raise", 52)
    act(table, dan, "call")
    act(table, erin, "bet", 104)  # turn
    act(table, dan, "call")  # all-in for 96
    hand.refresh_from_db()
    return Played(table, hand, {"dan": dan, "erin": erin})


@pytest.fixture
def extra_big_blind_hand(make_player, make_table) -> Played:
    """RULES 2.7: dave sits down between hands and posts a big blind to come in at once.

    Seats 1 alice, 3 bob, 5 carol play a first hand (alice's button; alice and bob fold). In the
    second, bob has the button, carol the small blind, alice the big blind, and dave (seat 2,
    left of the big blind) posts an extra big blind and acts first. Everyone limps; dave's
    straight takes the pot of 24 on the flop bet he makes and carol calls to the river."""
    table = make_table()
    alice, bob, carol, dave = (make_player(name) for name in ("alice", "bob", "carol", "dave"))
    for player, number in ((alice, 1), (bob, 3), (carol, 5)):
        sit(table, player, number, 200)
    start(table)
    act(table, alice, "fold")
    act(table, bob, "fold")
    services.take_seat(
        user=dave,
        table_id=table.pk,
        seat_number=2,
        buy_in=200,
        post_big_blind_now=True,
        request_id=uuid.uuid4().hex,
    )
    # Dealing starts left of the button (bob, seat 3): carol, alice, dave, bob.
    hand = start(table, arranged_deck(["As Ah 4c 5d", "Kc Kh 6c 8d", "Qc Qh Tc 8c", "4h 4s 6h 6s"], "2c 7d 9h Js 3s"))
    act(table, dave, "check")
    act(table, bob, "call")
    act(table, carol, "call")
    act(table, alice, "check")
    act(table, carol, "check")  # flop
    act(table, alice, "check")
    act(table, dave, "bet", 8)
    act(table, bob, "fold")
    act(table, carol, "call")
    act(table, alice, "fold")
    for player in (carol, dave, carol, dave):  # turn, river
        act(table, player, "check")
    hand.refresh_from_db()
    return Played(table, hand, {"alice": alice, "bob": bob, "carol": carol, "dave": dave})


@pytest.fixture
def dead_blind_hands(make_player, make_table) -> dict[str, Played]:
    """RULES 2.9 after a departure: a hand with a dead small blind, then one with a dead button.

    Seats 1 alice, 2 bob, 3 carol, 4 dave at Pot Limit 1/2 with 200 each. The first hand (alice's
    button, bob and carol the blinds) is folded to carol, who then leaves. The second hand:
    bob's button, no small blind (carol's seat is empty), dave the big blind; alice raises to 6,
    bob and dave call; dave checks, alice bets 10 and only dave calls; checked down, alice's
    aces win the pot of 38 (alice 222, bob 193, dave 184). The third hand: the button is dead on
    carol's empty seat 3, dave the small blind, alice the big blind; everyone limps, dave bets 6
    on the flop and takes the pot of 6 (alice 220, bob 191, dave 188)."""
    table = make_table()
    alice, bob, carol, dave = (make_player(name) for name in ("alice", "bob", "carol", "dave"))
    for player, number in ((alice, 1), (bob, 2), (carol, 3), (dave, 4)):
        sit(table, player, number, 200)
    start(table)
    for player in (dave, alice, bob):
        act(table, player, "fold")
    services.leave(user=carol, table_id=table.pk)
    players = {"alice": alice, "bob": bob, "dave": dave}

    # Dealt left of the button (bob, seat 2): dave, alice, bob.
    dead_small_blind = start(table, arranged_deck(["Kc Kh 6c 8d", "As Ah 4c 5d", "Qc Qh Tc 8c"], "2c 7d 9h Js 3s"))
    act(table, alice, "raise", 6)
    act(table, bob, "call")
    act(table, dave, "call")
    act(table, dave, "check")  # flop
    act(table, alice, "bet", 10)
    act(table, bob, "fold")
    act(table, dave, "call")
    for player in (dave, alice, dave, alice):  # turn, river
        act(table, player, "check")
    dead_small_blind.refresh_from_db()

    # Dealt left of the dead button (seat 3): dave, alice, bob.
    dead_button = start(table, arranged_deck(["Jc Jd 2s 3h", "9c 9d 4h 5h", "Tc Td 6h 7h"], "Ks 8s 4d Qd 2h"))
    act(table, bob, "call")
    act(table, dave, "call")
    act(table, alice, "check")
    act(table, dave, "bet", 6)  # flop
    act(table, alice, "fold")
    act(table, bob, "fold")
    dead_button.refresh_from_db()
    return {
        "dead_small_blind": Played(table, dead_small_blind, players),
        "dead_button": Played(table, dead_button, players),
    }
