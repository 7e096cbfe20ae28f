"""The hand list, the replayer page and the fair-deal section, as players and strangers see them."""

import re

import pytest
from django.urls import reverse

from tables.history import listing
from tables.history.replayer import replay
from tables.models import Hand
from tables.selectors.hands import logged_events
from tests.support.history import ALICE_CARDS, BOB_CARDS, CAROL_CARDS, fold_to_the_big_blind, play_to_showdown

pytestmark = [pytest.mark.django_db]


def page_of(client, user, hand, **query):
    client.force_login(user)
    return client.get(reverse("history:detail", args=[hand.pk]), query)


def section(page_html: str, section_id: str) -> str:
    """The HTML of one <section> of the hand page."""
    match = re.search(rf'<section[^>]*(id|aria-labelledby)="{section_id}".*?</section>', page_html, re.S)
    assert match, section_id
    return match.group(0)


def cards_in(text: str, cards: str) -> list[str]:
    """Which of ``cards`` appear in ``text`` as cards (a standalone token, not inside a hex digest)."""
    tokens = set(re.findall(r"(?<![0-9A-Za-z])[2-9TJQKA][cdhs](?![0-9A-Za-z])", text))
    return [card for card in cards.split() if card in tokens]


# --- the list --------------------------------------------------------------------


def test_the_list_shows_my_hands_newest_first_with_my_cards_and_net_result(client, seat_three):
    table, players = seat_three
    first = play_to_showdown(table, players)
    second = fold_to_the_big_blind(table, players)
    client.force_login(players["alice"])

    page = client.get(reverse("history:list")).content.decode()

    rows = re.findall(r'<tr id="hand-(\d+)">(.*?)</tr>', page, re.S)
    assert [int(hand_id) for hand_id, _ in rows] == [second.pk, first.pk]
    first_row = {int(k): v for k, v in rows}[first.pk]
    assert "+37" in first_row and cards_in(first_row, ALICE_CARDS) == ALICE_CARDS.split()
    second_row = {int(k): v for k, v in rows}[second.pk]
    assert "+1" in second_row and cards_in(second_row, "7c 7d 7h 7s") == ["7c", "7d", "7h", "7s"]
    assert cards_in(page, f"{BOB_CARDS} {CAROL_CARDS} 6c 6d 6h 6s 3c 3h 3s 4c") == []


def test_the_list_shows_only_my_own_hands(client, showdown_hand, make_player):
    stranger = make_player("stranger")
    client.force_login(stranger)
    page = client.get(reverse("history:list")).content.decode()
    assert f'id="hand-{showdown_hand.hand.pk}"' not in page
    assert "You have not played a hand yet" in page


def test_the_list_is_paginated(client, seat_three, monkeypatch):
    monkeypatch.setattr(listing, "HANDS_PER_PAGE", 1)
    table, players = seat_three
    first = play_to_showdown(table, players)
    second = fold_to_the_big_blind(table, players)
    client.force_login(players["bob"])

    newest = client.get(reverse("history:list")).content.decode()
    older = client.get(reverse("history:list"), {"page": 2}).content.decode()

    assert f'id="hand-{second.pk}"' in newest and f'id="hand-{first.pk}"' not in newest
    assert f'id="hand-{first.pk}"' in older and "Page 2 of 2" in older


def test_the_list_needs_a_login(client):
    response = client.get(reverse("history:list"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# --- the replayer ----------------------------------------------------------------


def test_replay_of_a_showdown_counts_the_pot_and_who_won_what(showdown_hand):
    steps_and_results = replay(logged_events(showdown_hand.hand))
    texts = [step.text for step in steps_and_results.steps]
    pots = {step.text: step.pot for step in steps_and_results.steps}
    assert "alice raises to 6." in texts and "bob folds." in texts
    assert pots["Flop: [Ac 2h 3d]."] == 13
    assert pots["River: [Tc]."] == 33
    assert "The pot (73): alice wins 73." in texts
    results = {r.name: (r.won, r.net, r.final_stack) for r in steps_and_results.results}
    assert results == {"alice": (73, 37, 237), "bob": (0, -1, 199), "carol": (0, -36, 164)}


def test_the_hand_page_steps_through_the_hand(client, showdown_hand):
    alice = showdown_hand.players["alice"]
    page = page_of(client, alice, showdown_hand.hand, step=0).content.decode()
    assert "Step 1 of" in page and "The hand starts: alice (seat 1) has the button" in page
    assert 'href="?step=1#replayer" rel="next"' in page
    steps = re.findall(r'<li[^>]*><a href="\?step=(\d+)#replayer">', page)
    assert [int(n) for n in steps] == list(range(len(steps)))

    last = page_of(client, alice, showdown_hand.hand).content.decode()
    assert f"Step {len(steps)} of {len(steps)}" in last
    assert "alice shows [Ah Ad Kc Qd]: three of a kind" in last
    assert "carol mucks." in last
    assert "The pot (73): alice wins 73." in last


def test_a_player_sees_their_own_cards_and_shown_cards_but_never_unshown_ones(client, showdown_hand):
    """alice's page: her cards; bob folded and carol mucked, so theirs never appear
    (outside the revealed deck, where they are not grouped by player)."""
    alice_page = page_of(client, showdown_hand.players["alice"], showdown_hand.hand).content.decode()
    hand_parts = section(alice_page, "replayer") + section(alice_page, "results-title")
    assert cards_in(hand_parts, ALICE_CARDS) == ALICE_CARDS.split()
    assert cards_in(hand_parts, BOB_CARDS) == []
    assert cards_in(hand_parts, CAROL_CARDS) == []

    carol_page = page_of(client, showdown_hand.players["carol"], showdown_hand.hand).content.decode()
    carol_parts = section(carol_page, "replayer") + section(carol_page, "results-title")
    assert cards_in(carol_parts, CAROL_CARDS) == CAROL_CARDS.split()
    assert cards_in(carol_parts, ALICE_CARDS) == ALICE_CARDS.split()  # shown at showdown
    assert cards_in(carol_parts, BOB_CARDS) == []


def test_a_running_hand_shows_its_commitments_but_never_the_deck_the_seed_or_other_hole_cards(client, hand_on_the_flop):
    hand = hand_on_the_flop.hand
    assert hand.state == Hand.State.RUNNING
    response = page_of(client, hand_on_the_flop.players["carol"], hand)
    page = response.content.decode()
    assert response.status_code == 200
    assert hand.merkle_root in page and hand.seed_commitment in page
    assert hand.server_seed not in page
    assert hand.deck not in page and " ".join(hand.deck.split()[:5]) not in page
    assert cards_in(page, CAROL_CARDS) == CAROL_CARDS.split()
    assert cards_in(page, ALICE_CARDS + " " + BOB_CARDS) == []
    assert "data-proof-url" not in page


def test_a_complete_hand_shows_no_deck_and_offers_the_proof_of_what_the_player_saw(client, showdown_hand):
    hand = showdown_hand.hand
    page = page_of(client, showdown_hand.players["bob"], hand).content.decode()

    assert hand.deck not in page and hand.server_seed not in page
    assert reverse("history:proof", args=[hand.pk]) in page
    assert "published on" in page  # the full reveal's date, a day after the hand


def test_staff_see_every_hole_card_of_a_complete_hand(client, showdown_hand, django_user_model):
    staff = django_user_model.objects.create_user("croupier", password="x-Strong-pass-1", is_staff=True)
    page = page_of(client, staff, showdown_hand.hand).content.decode()
    assert cards_in(section(page, "replayer"), BOB_CARDS + " " + CAROL_CARDS) == (BOB_CARDS + " " + CAROL_CARDS).split()


def test_staff_see_no_hole_card_of_a_running_hand_they_do_not_play(client, hand_on_the_flop, django_user_model):
    staff = django_user_model.objects.create_user("croupier", password="x-Strong-pass-1", is_staff=True)
    page = page_of(client, staff, hand_on_the_flop.hand).content.decode()
    assert cards_in(page, ALICE_CARDS + " " + BOB_CARDS + " " + CAROL_CARDS) == []
    assert hand_on_the_flop.hand.server_seed not in page


def test_someone_who_did_not_play_the_hand_gets_404(client, showdown_hand, make_player):
    stranger = make_player("stranger")
    assert page_of(client, stranger, showdown_hand.hand).status_code == 404


def test_rule_2_9_the_replayer_tells_a_dead_small_blind_and_a_dead_button(client, dead_blind_hands):
    dead_small_blind = dead_blind_hands["dead_small_blind"]
    steps = replay(logged_events(dead_small_blind.hand))
    assert steps.dead_button is None
    assert steps.steps[0].text == (
        "The hand starts: bob (seat 2) has the button; blinds 1/2. Nobody posts the small blind (dead small blind)."
    )
    assert steps.steps[1].text == "dave posts the big blind: 2."
    assert [seat.seat for seat in steps.steps[0].seats if seat.is_button] == [2]

    dead_button = dead_blind_hands["dead_button"]
    steps = replay(logged_events(dead_button.hand))
    assert steps.dead_button == 3
    assert steps.steps[0].text == (
        "The hand starts: the button is dead on seat 3 (nobody is dealt in from it); blinds 1/2."
    )
    assert not any(seat.is_button for step in steps.steps for seat in step.seats)
    client.force_login(dead_button.players["bob"])
    page = client.get(reverse("history:detail", args=[dead_button.hand.pk])).content.decode()
    assert "Dead button on seat 3: nobody was dealt in from it" in page
