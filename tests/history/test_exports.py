"""PokerStars-style text and PHH exports: what they say, who may fetch them, and PokerKit agreeing."""

import re
import tomllib
from datetime import timedelta

import pokerkit
import pytest
from django.urls import reverse

from tables import services
from tables.history.access import HandRecord
from tables.history.numbering import exported_hand_number
from tables.history.phh import phh_text
from tables.models import HandPlayer, Installation, Table
from tables.selectors.hands import logged_events
from tests.support.history import (
    ALICE_CARDS,
    BOB_CARDS,
    CAROL_CARDS,
    Played,
    arranged_deck,
    fold_to_the_big_blind,
    play_to_showdown,
    start,
)
from tests.support.tables import act, sit

pytestmark = [pytest.mark.django_db]


def fetch(client, user, name, *args, **query):
    client.force_login(user)
    return client.get(reverse(f"history:{name}", args=args), query)


def text_of(response) -> str:
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    return response.content.decode()


def final_stacks_by_seat(hand) -> dict[int, int]:
    return dict(HandPlayer.objects.filter(hand=hand).values_list("seat", "final_stack"))


def pokerkit_final_stacks_by_seat(phh: str) -> dict[int, int]:
    """Load the PHH with PokerKit, play it to the end, and read its stacks."""
    history = pokerkit.HandHistory.loads(phh)
    *_, final_state = history
    assert not final_state.status, "PokerKit did not reach the end of the hand"
    return dict(zip(history.seats, final_state.stacks, strict=True))


# --- PokerStars-style text -------------------------------------------------------


def test_pokerstars_text_of_a_showdown_as_alice_saw_it(client, showdown_hand):
    hand = showdown_hand.hand
    response = fetch(client, showdown_hand.players["alice"], "export_text", hand.pk)
    lines = text_of(response).splitlines()

    assert response["Content-Disposition"] == f'attachment; filename="hand-{hand.pk}.txt"'
    number = exported_hand_number(Installation.current().number, hand.pk)
    assert re.fullmatch(
        rf"PokerStars Hand #{number}:  Omaha Pot Limit \(1/2\) - "
        r"\d{4}/\d\d/\d\d \d\d:\d\d:\d\d UTC \[\d{4}/\d\d/\d\d \d?\d:\d\d:\d\d ET\]",
        lines[0],
    )
    shows = "three of a kind, Aces"
    assert lines[1:] == [
        f"Table '{showdown_hand.table.name}' 6-max (Play Money) Seat #1 is the button",
        "Seat 1: alice (200 in chips)",
        "Seat 2: bob (200 in chips)",
        "Seat 3: carol (200 in chips)",
        "bob: posts small blind 1",
        "carol: posts big blind 2",
        "*** HOLE CARDS ***",
        "Dealt to alice [Ah Ad Kc Qd]",
        "alice: raises 4 to 6",
        "bob: folds",
        "carol: calls 4",
        "*** FLOP *** [Ac 2h 3d]",
        "carol: checks",
        "alice: bets 10",
        "carol: calls 10",
        "*** TURN *** [Ac 2h 3d] [Ks]",
        "carol: checks",
        "alice: checks",
        "*** RIVER *** [Ac 2h 3d Ks] [Tc]",
        "carol: checks",
        "alice: bets 20",
        "carol: calls 20",
        "*** SHOW DOWN ***",
        f"alice: shows [Ah Ad Kc Qd] ({shows})",
        "carol: mucks hand",
        "alice collected 73 from pot",
        "*** SUMMARY ***",
        "Total pot 73 | Rake 0",
        "Board [Ac 2h 3d Ks Tc]",
        f"Seat 1: alice (button) showed [Ah Ad Kc Qd] and won (73) with {shows}",
        "Seat 2: bob (small blind) folded before Flop",
        "Seat 3: carol (big blind) mucked",
        f"Fair deal: Merkle root {hand.merkle_root}, server seed commitment {hand.seed_commitment}",
    ]


def test_pokerstars_text_of_an_all_in_shows_the_returned_bet_and_both_hands(client, all_in_hand):
    text = text_of(fetch(client, all_in_hand.players["dan"], "export_text", all_in_hand.hand.pk))
    assert "Dealt to dan [Ah Kh Qh Jh]" in text and "Dealt to erin" not in text
    for line in (
        "Seat 1: dan (150 in chips)",
        "dan: raises 12 to 16",
        "erin: raises 36 to 52",
        "dan: calls 96 and is all-in",
        "Uncalled bet (8) returned to erin",
        "*** RIVER *** [2s 9h Tc 4d] [5c]",
        "erin: shows [2c 2d 7s 8s] (three of a kind, Deuces)",
        "erin collected 300 from pot",
        "Seat 1: dan (button) (small blind) showed [Ah Kh Qh Jh] and lost with high card Ace",
        "Seat 4: erin (big blind) showed [2c 2d 7s 8s] and won (300) with three of a kind, Deuces",
    ):
        assert line in text.splitlines()


def test_pokerstars_range_export_holds_only_my_complete_hands(client, all_in_hand, seat_three):
    table, players = seat_three
    showdown = play_to_showdown(table, players)
    folded = fold_to_the_big_blind(table, players)
    running = start(table)
    ids = [all_in_hand.hand.pk, showdown.pk, folded.pk, running.pk]

    text = text_of(fetch(client, players["alice"], "export_range", **{"from": min(ids), "to": max(ids)}))

    installation = Installation.current().number
    assert re.findall(r"^PokerStars Hand #(\d+):", text, re.M) == [
        str(exported_hand_number(installation, hand.pk)) for hand in (showdown, folded)
    ]
    assert "\n\n\nPokerStars Hand #" in text


@pytest.mark.parametrize("query", [{}, {"from": "1"}, {"from": "one", "to": "2"}])
def test_pokerstars_range_export_needs_two_hand_numbers(client, make_player, query):
    assert fetch(client, make_player(), "export_range", **query).status_code == 400


def test_pokerstars_range_export_of_no_hands_is_404(client, showdown_hand, make_player):
    hand_id = showdown_hand.hand.pk
    assert fetch(client, make_player(), "export_range", **{"from": hand_id, "to": hand_id}).status_code == 404


@pytest.mark.parametrize("name", ["export_text", "export_phh"])
def test_exports_are_404_for_someone_who_did_not_play(client, showdown_hand, make_player, name):
    assert fetch(client, showdown_hand.players["alice"], name, showdown_hand.hand.pk).status_code == 200
    assert fetch(client, make_player("stranger"), name, showdown_hand.hand.pk).status_code == 404


@pytest.mark.parametrize("name", ["export_text", "export_phh"])
def test_exports_are_404_while_the_hand_is_running(client, hand_on_the_flop, name):
    assert fetch(client, hand_on_the_flop.players["alice"], name, hand_on_the_flop.hand.pk).status_code == 404


# --- PHH ------------------------------------------------------------------------


@pytest.mark.parametrize("played_hand", ["showdown_hand", "all_in_hand", "extra_big_blind_hand"])
def test_phh_with_every_card_known_replays_in_pokerkit_to_our_final_stacks(
    client, request, played_hand, django_user_model
):
    """Staff export complete hands with every hole card: PokerKit, playing our actions under
    its own rules, must pay the pots exactly as our engine did."""
    played: Played = request.getfixturevalue(played_hand)
    staff = django_user_model.objects.create_user("croupier", password="x-Strong-pass-1", is_staff=True)
    phh = text_of(fetch(client, staff, "export_phh", played.hand.pk))

    assert "?" not in phh
    assert pokerkit_final_stacks_by_seat(phh) == final_stacks_by_seat(played.hand)


def test_phh_for_a_player_hides_unshown_cards_and_still_replays(client, showdown_hand):
    phh = text_of(fetch(client, showdown_hand.players["alice"], "export_phh", showdown_hand.hand.pk))
    fields = tomllib.loads(phh)

    assert fields["variant"] == "PO"
    assert fields["players"] == ["bob", "carol", "alice"]  # from left of the button, the button last
    assert fields["seats"] == [2, 3, 1]
    assert fields["blinds_or_straddles"] == [1, 2, 0]
    assert fields["actions"][:3] == ["d dh p1 ????????", "d dh p2 ????????", "d dh p3 AhAdKcQd"]
    assert fields["actions"][-2:] == ["p3 sm AhAdKcQd", "p2 sm"]
    hand = showdown_hand.hand
    assert (fields["_merkle_root"], fields["_seed_commitment"]) == (hand.merkle_root, hand.seed_commitment)
    without_digests = re.sub(r"[0-9a-f]{64}", "", phh)  # hex digits include the suits c and d
    assert not any(card in without_digests for card in (BOB_CARDS + " " + CAROL_CARDS).split())
    assert pokerkit_final_stacks_by_seat(phh) == final_stacks_by_seat(hand)


def test_phh_heads_up_lists_the_button_last_with_the_blinds_in_pokerkit_order(all_in_hand):
    hand = all_in_hand.hand
    fields = tomllib.loads(phh_text(HandRecord(hand, logged_events(hand), None, full_knowledge=True)))
    assert fields["players"] == ["erin", "dan"]
    assert fields["blinds_or_straddles"] == [1, 2]  # PokerKit swaps them heads-up: the button posts 1
    assert fields["starting_stacks"] == [200, 150]
    assert fields["finishing_stacks"] == [350, 0]
    assert fields["actions"][-3:] == ["p1 sm 2c2d7s8s", "p2 sm AhKhQhJh", "d db 5c"]  # turned up before the river


def test_a_big_blind_posted_to_come_in_is_a_live_post_in_both_formats(client, extra_big_blind_hand):
    hand, dave = extra_big_blind_hand.hand, extra_big_blind_hand.players["dave"]
    fields = tomllib.loads(text_of(fetch(client, dave, "export_phh", hand.pk)))
    assert fields["players"] == ["carol", "alice", "dave", "bob"]
    assert fields["blinds_or_straddles"] == [1, 2, -2, 0]  # negative: a post, not a straddle
    lines = text_of(fetch(client, dave, "export_text", hand.pk)).splitlines()
    assert lines[lines.index("alice: posts big blind 2") + 1] == "dave: posts big blind 2"
    assert lines[lines.index("Dealt to dave [Qc Qh Tc 8c]") + 1] == "dave: checks"


def test_phh_writes_any_table_name_as_valid_toml(showdown_hand):
    hand = showdown_hand.hand
    name = "Le \"Grand\" \\ Salon 'Ω'\t\x7f 🂡"
    Table.objects.filter(pk=hand.table_id).update(name=name)
    hand.table.refresh_from_db()
    fields = tomllib.loads(phh_text(HandRecord(hand, logged_events(hand), None, full_knowledge=True)))
    assert fields["table"] == name


def test_a_timed_out_player_kept_all_in_is_in_the_text_but_cannot_be_phh(client, seat_three):
    """RULES 6.2: carol (big blind) runs out of time facing alice's raise; with chips in the pot
    she stays in, all-in for what she put in. PokerStars text marks her blind all-in, as a tracker
    reads it, and says she timed out; the live log keeps the room's words; PHH has no such move."""
    table, players = seat_three
    hand = start(table, arranged_deck([BOB_CARDS, CAROL_CARDS, ALICE_CARDS], "Ac 2h 3d Ks Tc"))
    act(table, players["alice"], "raise", 6)
    act(table, players["bob"], "fold")
    hand.refresh_from_db()
    services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=hand.turn_deadline + timedelta(seconds=1))
    hand.refresh_from_db()
    assert hand.state == hand.State.COMPLETE

    refused = fetch(client, players["carol"], "export_phh", hand.pk)
    assert refused.status_code == 404 and "PHH cannot express that" in refused.content.decode()
    lines = text_of(fetch(client, players["carol"], "export_text", hand.pk)).splitlines()
    assert "carol: posts big blind 2 and is all-in" in lines
    assert lines[lines.index("bob: folds") + 1] == "carol has timed out"
    assert not any("already in the pot" in line for line in lines)
    assert "Uncalled bet (4) returned to alice" in lines
    page = fetch(client, players["carol"], "detail", hand.pk).content.decode()
    assert "carol ran out of time and stays in, all-in with the chips already in the pot." in page


def test_phh_of_a_limit_hand_is_refused_with_the_reason_and_pokerstars_text_works(client, make_player, make_table):
    table = make_table(variant=Table.Variant.LIMIT, stake_small=10, stake_big=20, min_buy_in=100, max_buy_in=400)
    ann, ben = make_player("ann"), make_player("ben")
    sit(table, ann, 1, 400)
    sit(table, ben, 2, 400)
    hand = start(table)
    act(table, ann, "fold")

    refused = fetch(client, ann, "export_phh", hand.pk)
    assert refused.status_code == 404
    assert "no fixed-limit Omaha High variant" in refused.content.decode()
    text = text_of(fetch(client, ann, "export_text", hand.pk))
    assert "Omaha Limit (10/20)" in text
    assert "ann: posts small blind 5" in text and "ben: posts big blind 10" in text
    assert "Uncalled bet (5) returned to ben" in text
    assert "Seat 2: ben (big blind) collected (10)" in text


def test_the_hand_page_offers_phh_only_for_pot_limit(client, showdown_hand):
    client.force_login(showdown_hand.players["carol"])
    page = client.get(reverse("history:detail", args=[showdown_hand.hand.pk])).content.decode()
    assert reverse("history:export_phh", args=[showdown_hand.hand.pk]) in page
    assert reverse("history:export_text", args=[showdown_hand.hand.pk]) in page


# --- After a departure: a dead small blind, a dead button (RULES 2.9) -----------------------


def test_pokerstars_text_of_a_dead_small_blind_has_no_small_blind_post(client, dead_blind_hands):
    played = dead_blind_hands["dead_small_blind"]
    lines = text_of(fetch(client, played.players["bob"], "export_text", played.hand.pk)).splitlines()
    assert lines[1].endswith("Seat #2 is the button")
    assert lines[2:7] == [
        "Seat 1: alice (200 in chips)",
        "Seat 2: bob (199 in chips)",
        "Seat 4: dave (200 in chips)",
        "dave: posts big blind 2",
        "*** HOLE CARDS ***",
    ]
    assert not any("small blind" in line for line in lines)
    assert "Seat 2: bob (button) folded on the Flop" in lines
    assert any(line.startswith("Seat 4: dave (big blind) showed") for line in lines)


def test_pokerstars_text_of_a_dead_button_names_the_empty_seat_as_the_button(client, dead_blind_hands):
    played = dead_blind_hands["dead_button"]
    lines = text_of(fetch(client, played.players["dave"], "export_text", played.hand.pk)).splitlines()
    assert lines[1].endswith("Seat #3 is the button")
    assert lines[2:7] == [
        "Seat 1: alice (222 in chips)",
        "Seat 2: bob (193 in chips)",
        "Seat 4: dave (184 in chips)",
        "dave: posts small blind 1",
        "alice: posts big blind 2",
    ]
    summary = lines[lines.index("*** SUMMARY ***") :]
    assert not any(line.startswith("Seat 3") or "(button)" in line for line in summary)
    assert "Seat 4: dave (small blind) collected (6)" in summary


@pytest.mark.parametrize("which", ["dead_small_blind", "dead_button"])
def test_phh_of_a_dead_small_blind_or_dead_button_replays_in_pokerkit_to_our_final_stacks(
    client, dead_blind_hands, which, django_user_model
):
    played = dead_blind_hands[which]
    staff = django_user_model.objects.create_user("croupier", password="x-Strong-pass-1", is_staff=True)
    phh = text_of(fetch(client, staff, "export_phh", played.hand.pk))
    assert pokerkit_final_stacks_by_seat(phh) == final_stacks_by_seat(played.hand)


def test_phh_positions_after_a_departure(dead_blind_hands):
    def fields(which):
        hand = dead_blind_hands[which].hand
        return tomllib.loads(phh_text(HandRecord(hand, logged_events(hand), None, full_knowledge=True)))

    dead_small_blind = fields("dead_small_blind")
    assert dead_small_blind["seats"] == [4, 1, 2]  # from left of bob's button, the button last
    assert dead_small_blind["blinds_or_straddles"] == [2, 0, 0]  # p1 posts the big blind, no small blind
    dead_button = fields("dead_button")
    assert dead_button["seats"] == [4, 1, 2]  # from left of the empty seat 3: bob acts last
    assert dead_button["blinds_or_straddles"] == [1, 2, 0]
