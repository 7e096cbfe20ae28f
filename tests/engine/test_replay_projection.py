"""Replaying the action log, JSON-safe events, and what each viewer may see."""

import json

import pytest

from tables.engine import Action, ActionKind, Hand, HandConfig, PlayerStatus, Street, Variant
from tables.engine.events import Became, BlindKind, EventType, text_of
from tables.engine.projection import Views, revealed_cards, view_for, visible_events

from .support import check_down, make_config, new_hand, of_type, play, stacked_deck

BOARD = "Kc Qd Jh 2s 3c"
HOLES = {1: "AsTs4d4h", 2: "KhKs5d6d", 3: "9c9s7h8h"}


def played_hand():
    config = make_config({1: 100, 2: 100, 3: 30})
    hand = Hand(config, stacked_deck(config, HOLES, BOARD))
    events = hand.start()
    events += play(hand, "1 raise 7", "2 call", "3 timeout", "2 bet 14", "1 raise 56")
    events += play(hand, "2 call")
    events += check_down(hand)
    return hand, events


def test_replay_rebuilds_the_same_state_and_events():
    hand, events = played_hand()
    again = Hand.replay(hand.config, hand.deck, hand.actions)
    assert again.to_dict() == hand.to_dict()
    assert again.events == events == hand.events


def test_replay_from_stored_json():
    hand, _ = played_hand()
    stored = json.loads(json.dumps(hand.to_dict()))
    config = HandConfig.from_dict(stored["config"])
    deck = stacked_deck(config, HOLES, BOARD)
    again = Hand.replay(config, deck, [Action.from_dict(a) for a in stored["actions"]])
    assert again.to_dict() == stored


def test_replay_mid_hand_continues_identically():
    hand = new_hand(make_config({1: 100, 2: 100, 3: 100}))
    play(hand, "1 raise 7", "2 call")
    again = Hand.replay(hand.config, hand.deck, hand.actions)
    assert again.to_dict() == hand.to_dict()
    assert again.legal_actions() == hand.legal_actions()


def test_events_are_json_safe():
    _, events = played_hand()
    assert json.loads(json.dumps(events)) == events
    assert all(type(event["type"]) is str for event in events)
    kinds = {e["kind"] for e in of_type(events, "player_acted")}
    assert all(type(kind) is str for kind in kinds)


@pytest.mark.parametrize("vocabulary", [Variant, Street, ActionKind, PlayerStatus, EventType, BlindKind, Became])
def test_the_vocabulary_is_written_as_its_text(vocabulary):
    """StrEnums: a member is its text in f-strings, str() and JSON, and equals it."""
    for member in vocabulary:
        assert f"{member}" == str(member) == member.value == member
        assert json.dumps({member: member}) == json.dumps({member.value: member.value})
        assert type(text_of(member)) is str and text_of(member) == member


def test_a_player_sees_only_their_own_hole_cards():
    _, events = played_hand()
    seen = visible_events(events, 1)
    dealt = {e["seat"]: e["cards"] for e in of_type(seen, "hole_cards_dealt")}
    assert dealt == {2: None, 3: None, 1: ["As", "Ts", "4d", "4h"]}
    # The original log is untouched.
    assert all(e["cards"] for e in of_type(events, "hole_cards_dealt"))


def test_a_spectator_sees_no_hole_card_until_shown():
    _hand, events = played_hand()
    seen = visible_events(events, None)
    assert all(e["cards"] is None for e in of_type(seen, "hole_cards_dealt"))
    # Seat 3 (protected all-in) and the others reach a showdown.
    assert revealed_cards(seen) == revealed_cards(events)
    shown = {e["seat"] for e in of_type(seen, "hand_shown")}
    assert shown, "someone showed at the end"


def test_view_for_a_seat_mid_hand():
    config = make_config({1: 100, 2: 100, 3: 100})
    hand = Hand(config, stacked_deck(config, HOLES, BOARD))
    hand.start()
    view = view_for(hand, 1)
    seats = {seat["seat"]: seat for seat in view["seats"]}
    assert seats[1]["cards"] == ["As", "Ts", "4d", "4h"]
    assert seats[2]["cards"] is None and seats[3]["cards"] is None
    assert view["legal_actions"]["seat"] == 1
    assert view["total_pot"] == 3
    assert view_for(hand, 2)["legal_actions"] is None
    assert all(seat["cards"] is None for seat in view_for(hand, None)["seats"])
    assert json.loads(json.dumps(view)) == view


def test_view_after_showdown_reveals_shown_hands_but_not_mucked_ones():
    config = make_config({1: 100, 2: 100, 3: 100})
    hand = Hand(config, stacked_deck(config, HOLES, BOARD))
    hand.start()
    play(hand, "1 call", "2 call", "3 check")
    events = check_down(hand)
    shown = {e["seat"] for e in of_type(events, "hand_shown")}
    mucked = {e["seat"] for e in of_type(events, "hand_mucked")}
    assert shown == {2, 1} and mucked == {3}  # seat 2 shows first; seat 3's nines lose
    spectator = {seat["seat"]: seat["cards"] for seat in view_for(hand, None)["seats"]}
    assert spectator == {1: ["As", "Ts", "4d", "4h"], 2: ["Kh", "Ks", "5d", "6d"], 3: None}
    assert view_for(hand, 3)["seats"][2]["cards"] == ["9c", "9s", "7h", "8h"]
    assert view_for(hand, None)["results"][0]["winners"] == [{"seat": 1, "amount": 6}]


def test_views_shared_by_every_viewer_give_each_its_own_and_nothing_of_anothers():
    """One ``Views`` serves every screen of a state: each viewer, asked in any order after the
    others, gets exactly the view worked out for them alone (their own hole cards, legal
    actions only when they are to act), and the spectator's view never takes a viewer's cards."""
    config = make_config({1: 100, 2: 100, 3: 100})
    hand = Hand(config, stacked_deck(config, HOLES, BOARD))
    hand.start()
    states = 0
    for move in ("1 call", "2 call", "3 check", None):
        views = Views(hand)
        for viewer in (2, None, 1, 3, None, 2):
            alone = view_for(hand, viewer)
            assert views.of(viewer) == alone
            assert json.loads(json.dumps(views.of(viewer))) == alone
            others = [seat["cards"] for seat in alone["seats"] if seat["seat"] != viewer]
            assert others == [None] * len(others)  # nothing shown yet
        assert views.of(1)["seats"][0]["cards"] == ["As", "Ts", "4d", "4h"]
        assert (views.of(1)["legal_actions"] is not None) == (hand.to_act == 1)
        states += 1
        if move is not None:
            play(hand, move)
    assert states == 4
