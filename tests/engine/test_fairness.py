"""Fair dealing (docs/fair-dealing.md): the deck from the server seed and the players'
contributions, per-card commitments in a Merkle tree, and proofs of single positions.

The published test vectors are pinned here and in the document, and the standard-library
verifier (``verify_hand.py``) is checked to agree with the engine on them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tables.engine import Action, ActionKind, HandConfig, SeatSetup, Variant, fairness
from tables.engine import Hand as EngineHand
from tables.engine.cards import format_cards
from tables.engine.deck import FULL_DECK
from tests.support.verifier import load_verifier

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = (ROOT / "docs" / "fair-dealing.md").read_text(encoding="utf-8")

VECTOR_SEED = bytes(range(32))
VECTOR_CONTRIBUTIONS = [
    fairness.Contribution(4, bytes([0x44]) * 32, fairness.Source.SERVER),
    fairness.Contribution(1, bytes([0x11]) * 32, fairness.Source.PLAYER),
]
VECTOR = {
    "seed_commitment": "a881ca1f44983318bbfb02f04f63a4da727145ba37a23cc5cc47efaaff918480",
    "derivation_key": "349a4f2560fe89c1289a88d61166fa375db25367f4284f2f6da6357eebf3c0b5",
    "deck": "4c 8c Ks Jd Jc 6c 2c 5c 3c 3h Th 2h 7c 7d Ts 8d Js Ac Tc 4d 6h Qd Kh Kd 9s 4s 5h 9d Td 9c 7h 3d "
    "5s As 4h 6d 5d 2s 7s 6s Jh 8h Ah Qc Qs Ad 9h 3s 2d Kc 8s Qh",
    "salt_0": "28188ed18aedd80dd51475481ffaf60cec09ba3e81ab12fe66d66b171afd7b4c",
    "leaf_0": "5e3d006aca4e910b23c5063e1006ed9c4cef85c5cd9b57ea1a546aa9cd45608c",
    "merkle_root": "732f427f50fc54e7215b784f62eb4b51d258855d9d1d80023270abbd7923250a",
    "stand_in_4": "bd03b72f7592adece1bfd9b1f18d61b75b99152bdb67bf532a06df5000d8c9f4",
}

seeds = st.binary(min_size=32, max_size=32)
values = st.binary(min_size=32, max_size=32)


def contributions_for(*pairs: tuple[int, bytes]) -> list[fairness.Contribution]:
    return [fairness.Contribution(seat, value, fairness.Source.PLAYER) for seat, value in pairs]


# --- the published vectors ---------------------------------------------------------


def test_the_published_vectors_hold_for_the_engine():
    dealt = fairness.deal(VECTOR_SEED, VECTOR_CONTRIBUTIONS)
    assert fairness.seed_commitment(VECTOR_SEED).hex() == VECTOR["seed_commitment"]
    assert fairness.derivation_key(VECTOR_SEED, VECTOR_CONTRIBUTIONS).hex() == VECTOR["derivation_key"]
    assert " ".join(format_cards(dealt.deck)) == VECTOR["deck"]
    assert dealt.salts[0].hex() == VECTOR["salt_0"]
    assert dealt.leaves[0].hex() == VECTOR["leaf_0"]
    assert dealt.root.hex() == VECTOR["merkle_root"]
    assert fairness.stand_in_contribution(VECTOR_SEED, 4).hex() == VECTOR["stand_in_4"]


def test_the_document_publishes_the_same_vectors():
    for name, value in VECTOR.items():
        assert value in DOCUMENT.replace("\n", " "), name


def test_the_standard_library_verifier_agrees_with_the_engine_on_the_vectors():
    verifier = load_verifier()
    as_json = [{"seat": c.seat, "value": c.value.hex(), "source": c.source.value} for c in VECTOR_CONTRIBUTIONS]
    deck, salts = verifier.derive(VECTOR_SEED, as_json)
    assert " ".join(deck) == VECTOR["deck"]
    assert salts[0].hex() == VECTOR["salt_0"]
    leaves = [verifier.leaf(position, deck[position], salts[position]) for position in range(52)]
    assert verifier.tree_root(leaves).hex() == VECTOR["merkle_root"]
    stand_in = verifier.hmac_sha256(VECTOR_SEED, b"omaha-room/stand-in/v1" + bytes([4]))
    assert stand_in.hex() == VECTOR["stand_in_4"]


@settings(max_examples=25, deadline=None)
@given(seed=seeds, first=values, second=values)
def test_the_verifier_and_the_engine_agree_on_any_seed_and_contributions(seed, first, second):
    verifier = load_verifier()
    contributions = contributions_for((2, first), (7, second))
    dealt = fairness.deal(seed, contributions)
    deck, salts = verifier.derive(seed, [{"seat": c.seat, "value": c.value.hex()} for c in contributions])
    assert deck == format_cards(dealt.deck)
    assert tuple(salts) == dealt.salts
    for position in (0, 13, 51):
        path = dealt.path(position)
        assert verifier.root_from_path(dealt.leaves[position], position, 52, path) == dealt.root


# --- the deck ------------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(seed=seeds, first=values, second=values)
def test_rule_1_2_every_derived_deck_holds_each_card_once(seed, first, second):
    dealt = fairness.deal(seed, contributions_for((1, first), (2, second)))
    assert sorted(dealt.deck) == list(FULL_DECK)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, value=values, other=values)
def test_a_players_contribution_changes_the_deck(seed, value, other):
    assume(value != other)
    one = fairness.deal(seed, contributions_for((1, value), (2, bytes(32))))
    two = fairness.deal(seed, contributions_for((1, other), (2, bytes(32))))
    assert one.deck != two.deck and one.root != two.root


def test_the_deck_does_not_depend_on_the_order_contributions_arrived_in():
    first = contributions_for((1, b"a" * 32), (5, b"b" * 32))
    assert fairness.deal(VECTOR_SEED, first) == fairness.deal(VECTOR_SEED, list(reversed(first)))


def test_the_same_value_from_another_seat_is_another_deck():
    assert (
        fairness.deal(VECTOR_SEED, contributions_for((1, b"a" * 32))).deck
        != fairness.deal(VECTOR_SEED, contributions_for((2, b"a" * 32))).deck
    )


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        fairness.deal(b"short", [])
    with pytest.raises(ValueError):
        fairness.deal(VECTOR_SEED, contributions_for((1, b"short")))
    with pytest.raises(ValueError):
        fairness.deal(VECTOR_SEED, contributions_for((1, b"a" * 32), (1, b"b" * 32)))
    with pytest.raises(ValueError):
        fairness.deal(VECTOR_SEED, contributions_for((0, b"a" * 32)))


def test_uniform_below_rejects_draws_past_the_last_whole_multiple():
    """bound 3: 2**32 % 3 == 1, so 0xFFFFFFFF would favour 0 and is drawn again."""
    draws = iter(bytes.fromhex("ffffffff" + "00000005"))
    assert fairness.uniform_below(draws, 3) == 5 % 3
    exact = iter(bytes.fromhex("fffffffe"))  # the largest accepted draw: 4294967294 % 3
    assert fairness.uniform_below(exact, 3) == 4294967294 % 3


def test_uniform_below_never_rejects_for_a_power_of_two():
    assert fairness.uniform_below(iter(bytes.fromhex("ffffffff")), 4) == 3


def test_the_shuffle_is_fisher_yates_from_the_ordered_deck():
    """A stream of zeros always swaps with position 0: the documented algorithm, by hand."""
    expected = list(FULL_DECK)
    for i in range(51, 0, -1):
        expected[i], expected[0] = expected[0], expected[i]
    assert fairness.shuffle(iter(bytes(52 * 4))) == tuple(expected)


def test_every_card_lands_in_every_position_over_many_decks():
    """A coarse sanity check of the shuffle's spread (the uniformity argument is the algorithm)."""
    firsts = {fairness.deal(hashlib.sha256(bytes([n])).digest(), []).deck[0] for n in range(256)}
    assert len(firsts) > 40


def test_a_stand_in_follows_from_the_seed_and_the_seat():
    """The server cannot choose a silent player's value after seeing the others' values."""
    assert fairness.stand_in_contribution(VECTOR_SEED, 4) == fairness.stand_in_contribution(VECTOR_SEED, 4)
    assert fairness.stand_in_contribution(VECTOR_SEED, 4) != fairness.stand_in_contribution(VECTOR_SEED, 5)
    other_seed = bytes([1]) + VECTOR_SEED[1:]
    assert fairness.stand_in_contribution(other_seed, 4) != fairness.stand_in_contribution(VECTOR_SEED, 4)


def test_the_fairness_module_never_uses_the_random_module():
    source = (ROOT / "tables" / "engine" / "fairness.py").read_text(encoding="utf-8")
    assert "import random" not in source and "from random" not in source


# --- commitments and the Merkle tree ---------------------------------------------------


def test_the_seed_commitment_catches_a_changed_seed():
    committed = fairness.seed_commitment(VECTOR_SEED)
    changed = bytes([VECTOR_SEED[0] ^ 1]) + VECTOR_SEED[1:]
    assert fairness.seed_commitment(changed) != committed
    assert committed == hashlib.sha256(b"omaha-room/seed/v1\x00" + VECTOR_SEED).digest()


def test_the_leaf_encoding_is_the_documented_bytes():
    salt = bytes(range(32))
    assert fairness.leaf_hash(5, 51, salt) == hashlib.sha256(b"\x00omaha-room/card/v1\x05As" + salt).digest()


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 8, 13, 52])
def test_every_path_leads_to_the_root_and_only_from_its_own_position(size):
    leaves = [hashlib.sha256(bytes([n])).digest() for n in range(size)]
    root = fairness.merkle_root(leaves)
    for index in range(size):
        path = fairness.merkle_path(leaves, index)
        assert fairness.root_from_path(leaves[index], index, size, path) == root
        if size > 1:
            assert fairness.root_from_path(leaves[index], (index + 1) % size, size, path) != root


def test_the_tree_of_52_carries_the_odd_node_up_rather_than_duplicating_it():
    leaves = [hashlib.sha256(bytes([n])).digest() for n in range(52)]
    left = fairness.merkle_root(leaves[:32])
    right = fairness.node_hash(fairness.merkle_root(leaves[32:48]), fairness.merkle_root(leaves[48:]))
    assert fairness.merkle_root(leaves) == fairness.node_hash(left, right)


def test_changing_a_card_salt_or_path_node_breaks_the_proof():
    dealt = fairness.deal(VECTOR_SEED, VECTOR_CONTRIBUTIONS)
    position = 9
    card, salt, path = dealt.deck[position], dealt.salts[position], dealt.path(position)
    honest = fairness.leaf_hash(position, card, salt)
    assert fairness.root_from_path(honest, position, 52, path) == dealt.root
    other_card = next(c for c in FULL_DECK if c != card)
    assert fairness.root_from_path(fairness.leaf_hash(position, other_card, salt), position, 52, path) != dealt.root
    flipped_salt = bytes([salt[0] ^ 1]) + salt[1:]
    assert fairness.root_from_path(fairness.leaf_hash(position, card, flipped_salt), position, 52, path) != dealt.root
    for k in range(len(path)):
        tampered = list(path)
        tampered[k] = bytes([tampered[k][0] ^ 1]) + tampered[k][1:]
        assert fairness.root_from_path(honest, position, 52, tampered) != dealt.root
    assert fairness.root_from_path(honest, position, 52, path[:-1]) != dealt.root


def test_the_dealing_positions_match_the_engine_deal():
    """RULES 1.4: the positions a proof names are those the engine deals from."""
    dealt = fairness.deal(VECTOR_SEED, VECTOR_CONTRIBUTIONS)
    config = HandConfig(
        variant=Variant.POT_LIMIT,
        small_blind=1,
        big_blind=2,
        big_bet=0,
        seats=tuple(SeatSetup(seat=n, stack=100) for n in (1, 4, 6)),
        button=1,
        small_blind_seat=4,
        big_blind_seat=6,
    )
    hand = EngineHand(config, dealt.deck)
    events = hand.start()
    holes = [e for e in events if e["type"] == "hole_cards_dealt"]
    for order_index, event in enumerate(holes):
        positions = [fairness.hole_card_position(order_index, k, len(holes)) for k in range(4)]
        assert event["cards"] == format_cards(dealt.deck[p] for p in positions)
    # Check it down to the river: the board comes from the board positions.
    while not hand.is_over:
        legal = hand.legal_actions()
        kind = ActionKind.CHECK if legal.can_check else ActionKind.CALL
        events += hand.apply(Action(legal.seat, kind))
    board = [e for e in events if e["type"] == "street_dealt"][-1]["board"]
    assert board == format_cards(dealt.deck[fairness.board_position(i, len(holes))] for i in range(5))
