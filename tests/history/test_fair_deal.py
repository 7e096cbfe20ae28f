"""The fair-deal proof of a hand (docs/fair-dealing.md): each player gets proofs of exactly the
cards they saw, the full reveal comes after its delay (to staff at once), ``verify_hand.py``
checks the downloaded file, and nothing shows another player's unshown card before the reveal."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from datetime import timedelta

import pytest
from django.urls import reverse

from tables.engine import fairness
from tables.engine.cards import parse_cards
from tables.models import Hand
from tests.support.fairness import check_down
from tests.support.history import ALICE_CARDS, BOB_CARDS, CAROL_CARDS, SHOWDOWN_BOARD, start
from tests.support.sockets import leaks
from tests.support.verifier import VERIFY_HAND, load_verifier

pytestmark = [pytest.mark.django_db]


def proof_of(client, user, hand) -> dict:
    client.force_login(user)
    response = client.get(reverse("history:proof", args=[hand.pk]))
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    return json.loads(response.content)


def failures(proof: dict) -> list[str]:
    return load_verifier().verify(proof)


def run_script(tmp_path, proof: dict) -> subprocess.CompletedProcess:
    path = tmp_path / "hand-proof.json"
    path.write_text(json.dumps(proof), encoding="utf-8")
    return subprocess.run([sys.executable, VERIFY_HAND, str(path)], capture_output=True, text=True, check=False)


def seen(proof: dict) -> dict[str, dict]:
    return {card["card"]: card["seen_as"] for card in proof["cards"]}


@pytest.fixture
def seeded_hand(seat_three):
    """A hand dealt from its seeds (no arranged deck), checked down to the showdown."""
    table, players = seat_three
    hand = start(table)
    check_down(table, players)
    hand.refresh_from_db()
    return hand, players


# --- what each player gets ---------------------------------------------------------------


def test_a_player_gets_proofs_of_exactly_their_cards_the_board_and_the_shown_cards(client, showdown_hand):
    """bob folded pre-flop, alice showed, carol mucked: bob's proof holds his four cards, the
    five board cards and alice's four; nothing of carol's."""
    proof = proof_of(client, showdown_hand.players["bob"], showdown_hand.hand)
    cards = seen(proof)
    assert proof["dealing_order"] == [2, 3, 1]
    assert set(cards) == set((BOB_CARDS + " " + SHOWDOWN_BOARD + " " + ALICE_CARDS).split())
    assert cards["Jh"] == {"kind": "hole", "seat": 2, "card_index": 0}
    assert cards["Ks"] == {"kind": "board", "board_index": 3}
    assert {card["position"] for card in proof["cards"]} == {0, 3, 6, 9, 2, 5, 8, 11, 13, 14, 15, 17, 19}
    assert proof["full_reveal"] is None
    assert proof["own_contribution"]["seat"] == 2 and proof["own_contribution"]["source"] == "server"


def test_the_downloaded_proof_verifies_with_the_standard_library_script(client, showdown_hand, tmp_path):
    proof = proof_of(client, showdown_hand.players["carol"], showdown_hand.hand)
    assert set(seen(proof)) == set((CAROL_CARDS + " " + SHOWDOWN_BOARD + " " + ALICE_CARDS).split())
    result = run_script(tmp_path, proof)
    assert result.returncode == 0, result.stdout
    assert result.stdout.count("sealed under the root") == 13
    assert "VERIFIED" in result.stdout and "no full reveal" in result.stdout


def test_changing_any_card_salt_path_node_or_position_fails_verification(client, showdown_hand):
    honest = proof_of(client, showdown_hand.players["alice"], showdown_hand.hand)
    assert failures(honest) == []
    for index in range(len(honest["cards"])):
        card = honest["cards"][index]
        others = [c for c in (BOB_CARDS + " " + CAROL_CARDS).split() if c != card["card"]]
        tampered = [
            ("card", others[0]),
            ("salt", _flip(card["salt"])),
            ("position", card["position"] + 1),
        ] + [
            ("path", [*card["path"][:k], _flip(card["path"][k]), *card["path"][k + 1 :]])
            for k in range(len(card["path"]))
        ]
        for field, value in tampered:
            proof = copy.deepcopy(honest)
            proof["cards"][index][field] = value
            assert failures(proof), (index, field)
    moved_root = copy.deepcopy(honest)
    moved_root["merkle_root"] = _flip(honest["merkle_root"])
    assert len(failures(moved_root)) == len(honest["cards"])


def test_the_script_exits_1_and_names_what_failed(client, showdown_hand, tmp_path):
    proof = proof_of(client, showdown_hand.players["alice"], showdown_hand.hand)
    proof["cards"][0]["salt"] = _flip(proof["cards"][0]["salt"])
    result = run_script(tmp_path, proof)
    assert result.returncode == 1
    assert "do not lead to the Merkle root" in result.stdout and "NOT VERIFIED" in result.stdout


def test_a_running_hand_has_no_proof_to_download(client, hand_on_the_flop):
    client.force_login(hand_on_the_flop.players["alice"])
    assert client.get(reverse("history:proof", args=[hand_on_the_flop.hand.pk])).status_code == 404


def test_someone_who_did_not_play_the_hand_gets_no_proof(client, showdown_hand, make_player):
    client.force_login(make_player("stranger"))
    assert client.get(reverse("history:proof", args=[showdown_hand.hand.pk])).status_code == 404


# --- the full reveal ---------------------------------------------------------------------


def test_the_full_reveal_comes_after_the_delay_and_then_the_whole_derivation_verifies(client, seeded_hand, tmp_path):
    hand, players = seeded_hand
    before = proof_of(client, players["alice"], hand)
    assert before["full_reveal"] is None
    assert before["full_reveal_at"] == (hand.ended_at + timedelta(hours=24)).isoformat()

    Hand.objects.filter(pk=hand.pk).update(ended_at=hand.ended_at - timedelta(hours=24, seconds=1))
    after = proof_of(client, players["alice"], hand)
    assert after["full_reveal"] == {"server_seed": hand.server_seed, "contributions": hand.contributions}
    result = run_script(tmp_path, after)
    assert result.returncode == 0, result.stdout
    assert "the server seed matches its commitment" in result.stdout
    assert "gives the Merkle root" in result.stdout


def test_staff_get_the_full_reveal_as_soon_as_the_hand_is_complete(client, seeded_hand, django_user_model):
    hand, _ = seeded_hand
    staff = django_user_model.objects.create_user("croupier", password="x-Strong-pass-1", is_staff=True)
    proof = proof_of(client, staff, hand)
    assert proof["full_reveal"]["server_seed"] == hand.server_seed
    assert failures(proof) == []
    page = client.get(reverse("history:detail", args=[hand.pk])).content.decode()
    assert hand.server_seed in page and all(each["value"] in page for each in hand.contributions)


def test_never_keeps_the_full_reveal_from_players(client, seeded_hand, settings):
    settings.FAIR_DEAL_REVEAL_AFTER = None
    hand, players = seeded_hand
    Hand.objects.filter(pk=hand.pk).update(ended_at=hand.ended_at - timedelta(days=3650))
    proof = proof_of(client, players["bob"], hand)
    assert proof["full_reveal"] is None and proof["full_reveal_at"] is None
    client.force_login(players["bob"])
    page = client.get(reverse("history:detail", args=[hand.pk])).content.decode()
    assert "does not publish the full deck" in page


def test_a_changed_seed_or_contribution_fails_the_full_verification(client, seeded_hand, django_user_model):
    """A server that swapped its seed after seeing the contributions is caught by the commitment
    it published before them; a changed contribution gives another deck than the root's."""
    hand, _ = seeded_hand
    staff = django_user_model.objects.create_user("croupier", password="x-Strong-pass-1", is_staff=True)
    honest = proof_of(client, staff, hand)
    swapped_seed = copy.deepcopy(honest)
    swapped_seed["full_reveal"]["server_seed"] = fairness.new_seed().hex()
    assert any("seed commitment" in failure for failure in failures(swapped_seed))
    picked = copy.deepcopy(honest)  # a server that chose a silent player's value itself
    picked["full_reveal"]["contributions"][0].update(value=fairness.new_seed().hex(), source="server")
    assert any("stand-in" in failure for failure in failures(picked))
    for index in range(len(honest["full_reveal"]["contributions"])):
        changed = copy.deepcopy(honest)
        changed["full_reveal"]["contributions"][index]["value"] = _flip(
            changed["full_reveal"]["contributions"][index]["value"]
        )
        assert any("does not give the Merkle root" in failure for failure in failures(changed))


def test_the_seeds_rebuild_the_hand_that_was_played(seeded_hand):
    """Replays and crash recovery read the same record: the deck the seeds give is the deck dealt."""
    hand, _ = seeded_hand
    contributions = [
        fairness.Contribution(c["seat"], bytes.fromhex(c["value"]), fairness.Source(c["source"]))
        for c in hand.contributions
    ]
    dealt = fairness.deal(bytes.fromhex(hand.server_seed), contributions)
    assert dealt.deck == parse_cards(hand.deck)
    assert dealt.root.hex() == hand.merkle_root
    assert fairness.seed_commitment(bytes.fromhex(hand.server_seed)).hex() == hand.seed_commitment


# --- privacy -------------------------------------------------------------------------------


def test_no_unshown_card_of_another_player_reaches_a_player_before_the_full_reveal(client, showdown_hand):
    """bob folded and carol mucked: none of their cards reaches any other player through any
    page, export or proof, in any notation (text, printed symbol, spoken name)."""
    hand = showdown_hand.hand
    hidden = {"alice": BOB_CARDS + " " + CAROL_CARDS, "bob": CAROL_CARDS, "carol": BOB_CARDS}
    for name, cards in hidden.items():
        client.force_login(showdown_hand.players[name])
        responses = [client.get(reverse("history:list"))]
        detail = reverse("history:detail", args=[hand.pk])
        last = len(re.findall(r'href="\?step=\d+#replayer"', client.get(detail).content.decode()))
        responses += [client.get(detail, {"step": step}) for step in range(last + 1)]
        responses += [
            client.get(reverse(f"history:{export}", args=[hand.pk]))
            for export in ("export_text", "export_phh", "proof")
        ]
        responses.append(client.get(reverse("history:export_range"), {"from": hand.pk, "to": hand.pk}))
        responses.append(client.get(reverse("table", args=[hand.table.pk])))
        assert all(response.status_code == 200 for response in responses)
        texts = [response.content.decode() for response in responses]
        assert leaks(texts, cards.split()) == [], name
        assert leaks(texts, ALICE_CARDS.split()), name  # the search does find cards that were shown
        assert all(hand.deck not in text and hand.server_seed not in text for text in texts)


def _flip(hex_text: str) -> str:
    return ("1" if hex_text[0] == "0" else "0") + hex_text[1:]
