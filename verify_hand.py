#!/usr/bin/env python3
"""Check an Omaha Room hand proof with nothing but the Python standard library.

    python verify_hand.py hand-123-proof.json

The file is what the hand page's "Download the proof (JSON)" link gives. This script checks:

1. every card you saw (your hole cards, the board, the cards shown) against the hand's
   Merkle root: its leaf from card, position and salt, then its path up to the root;
2. that each card sits where the dealing order puts it (hole cards one at a time from left of
   the button, a burn before the flop, the turn and the river);
3. once the full reveal is in the file: the server seed against the commitment published
   before the players sent their values, the stand-in value of any seat whose player sent none
   (it follows from the seed), the whole deck and every salt derived from the seed and the
   contributions, and the Merkle root rebuilt from all 52 positions.

It prints what it checked and exits 0 if everything holds, 1 (naming what failed) if not.
The construction is specified in docs/fair-dealing.md; this file shares no code with the room.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys

RANKS, SUITS = "23456789TJQKA", "cdhs"
ORDERED_DECK = [rank + suit for rank in RANKS for suit in SUITS]  # 2c 2d 2h 2s 3c ... As
PROOF_FORMAT = "omaha-room/hand-proof/v1"


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def hmac_sha256(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


def leaf(position: int, card: str, salt: bytes) -> bytes:
    return sha256(b"\x00" + b"omaha-room/card/v1" + bytes([position]) + card.encode("ascii") + salt)


def node(left: bytes, right: bytes) -> bytes:
    return sha256(b"\x01" + left + right)


def tree_root(leaves: list[bytes]) -> bytes:
    """RFC 6962: split at the largest power of two below the number of leaves."""
    if len(leaves) == 1:
        return leaves[0]
    split = 1
    while split * 2 < len(leaves):
        split *= 2
    return node(tree_root(leaves[:split]), tree_root(leaves[split:]))


def root_from_path(leaf_hash: bytes, index: int, size: int, path: list[bytes]) -> bytes | None:
    """RFC 9162 section 2.1.3.2, verifying an inclusion proof."""
    if index >= size:
        return None
    fn, sn, result = index, size - 1, leaf_hash
    for sibling in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            result = node(sibling, result)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            result = node(result, sibling)
        fn, sn = fn >> 1, sn >> 1
    return result if sn == 0 else None


def derive(server_seed: bytes, contributions: list[dict]) -> tuple[list[str], list[bytes]]:
    """The deck (dealing order) and the 52 salts that the seed and the contributions give."""
    material = server_seed
    for each in sorted(contributions, key=lambda each: each["seat"]):
        material += bytes([each["seat"]]) + bytes.fromhex(each["value"])
    key = hmac_sha256(b"omaha-room/deal/v1", material)  # HKDF-SHA256 extract (RFC 5869)

    def stream():
        counter = 0
        while True:
            yield from hmac_sha256(key, b"omaha-room/shuffle/v1" + counter.to_bytes(4, "big"))
            counter += 1

    source = stream()

    def below(bound: int) -> int:
        limit = 2**32 - 2**32 % bound
        while True:
            value = int.from_bytes(bytes(next(source) for _ in range(4)), "big")
            if value < limit:
                return value % bound

    deck = list(ORDERED_DECK)
    for i in range(51, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    salts = [hmac_sha256(key, b"omaha-room/salt/v1" + bytes([position])) for position in range(52)]
    return deck, salts


def expected_position(seen_as: dict, order: list[int]) -> int:
    """Where the dealing order puts a card: hole cards one at a time around the table from left
    of the button (``order``), then a burn, the flop, a burn, the turn, a burn, the river."""
    players = len(order)
    if seen_as["kind"] == "hole":
        return seen_as["card_index"] * players + order.index(seen_as["seat"])
    index = seen_as["board_index"]
    return 4 * players + (1 if index < 3 else index - 1) + index


def verify(proof: dict) -> list[str]:
    """What failed (empty when everything holds); prints what it checks."""
    failures: list[str] = []
    if proof.get("format") != PROOF_FORMAT:
        return [f"not a hand proof of format {PROOF_FORMAT}"]
    root = bytes.fromhex(proof["merkle_root"])
    order = proof["dealing_order"]
    for card in proof["cards"]:
        seen_as, position, text = card["seen_as"], card["position"], card["card"]
        name = f"{text} ({_seen_as(seen_as)}, position {position})"
        expected = expected_position(seen_as, order)
        if position != expected:
            failures.append(f"{name}: the dealing order puts that card at position {expected}")
        try:
            reached = root_from_path(
                leaf(position, text, bytes.fromhex(card["salt"])),
                position,
                52,
                [bytes.fromhex(p) for p in card["path"]],
            )
        except (ValueError, UnicodeEncodeError):
            reached = None
        if reached != root:
            failures.append(f"{name}: its salt and path do not lead to the Merkle root")
        else:
            print(f"ok   {name}: sealed under the root")
    reveal = proof.get("full_reveal")
    if not reveal:
        print("     no full reveal in this file yet: the deck's derivation is not checked")
        return failures
    seed = bytes.fromhex(reveal["server_seed"])
    if sha256(b"omaha-room/seed/v1" + b"\x00" + seed).hex() != proof["seed_commitment"]:
        failures.append("the server seed does not match the seed commitment published before the contributions")
    else:
        print("ok   the server seed matches its commitment")
    for each in reveal["contributions"]:
        stand_in = hmac_sha256(seed, b"omaha-room/stand-in/v1" + bytes([each["seat"]])).hex()
        if each["source"] == "server" and each["value"] != stand_in:
            failures.append(f"seat {each['seat']}: the server's stand-in value is not the one the seed fixes")
    deck, salts = derive(seed, reveal["contributions"])
    if tree_root([leaf(position, deck[position], salts[position]) for position in range(52)]) != root:
        failures.append("the deck derived from the seed and the contributions does not give the Merkle root")
    else:
        print("ok   the deck derived from the seed and the contributions gives the Merkle root")
    for card in proof["cards"]:
        if 0 <= card["position"] < 52 and deck[card["position"]] != card["card"]:
            failures.append(
                f"{card['card']} at position {card['position']}: the derived deck has {deck[card['position']]}"
            )
    sources = ", ".join(f"seat {each['seat']}: {each['source']}" for each in reveal["contributions"])
    print(f"     contributions ({sources}); derived deck: {' '.join(deck)}")
    return failures


def _seen_as(seen_as: dict) -> str:
    if seen_as["kind"] == "hole":
        return f"seat {seen_as['seat']} hole card {seen_as['card_index'] + 1}"
    return ["flop", "flop", "flop", "turn", "river"][seen_as["board_index"]]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as file:
        proof = json.load(file)
    try:
        failures = verify(proof)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        failures = [f"the file is not a well-formed proof ({error!r})"]
    for failure in failures:
        print(f"FAIL {failure}")
    print("VERIFIED" if not failures else "NOT VERIFIED")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
