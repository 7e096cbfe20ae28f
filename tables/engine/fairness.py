"""Fair dealing: the deck as a published function of the server's seed and the players'
contributions, committed card by card in a Merkle tree (docs/fair-dealing.md).

- The server draws a 32-byte seed per hand and publishes ``seed_commitment(seed)`` before
  any contribution for that hand can be sent.
- Every player dealt in contributes 32 random bytes (their browser's Web Crypto); for a
  player who sent none the value follows from the committed seed (``stand_in_contribution``),
  recorded as the server's.
- ``deal(seed, contributions)`` derives a key (HKDF-SHA256 extract, RFC 5869) from the seed
  and the contributions in seat order; an HMAC-SHA256 counter-mode stream from that key
  drives a Fisher-Yates shuffle with rejection sampling (no modulo bias), and the same key
  gives each of the 52 positions its own salt.
- Each position is one leaf, ``SHA-256(0x00 || "omaha-room/card/v1" || position || card ||
  salt)``, and the 52 leaves form an RFC 6962 Merkle tree whose root is published when the
  hand starts. A card, its salt and its path prove that one position without telling
  anything about the others.

Pure functions of bytes: no clock, no I/O. ``verify_hand.py`` at the repository root is an
independent implementation of the same construction (standard library only).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import CARD_COUNT
from .deck import FULL_DECK, validate_deck
from .events import CARD_TEXT

SEED_BYTES = 32
CONTRIBUTION_BYTES = 32
SALT_BYTES = 32

SEED_TAG = b"omaha-room/seed/v1"
DEAL_TAG = b"omaha-room/deal/v1"
SHUFFLE_TAG = b"omaha-room/shuffle/v1"
SALT_TAG = b"omaha-room/salt/v1"
STAND_IN_TAG = b"omaha-room/stand-in/v1"
CARD_TAG = b"omaha-room/card/v1"
LEAF_PREFIX = b"\x00"  # RFC 6962 domain separation of leaves and inner nodes
NODE_PREFIX = b"\x01"


class Source(StrEnum):
    """Who drew a contribution: the player's browser, or the server for a player who sent none."""

    PLAYER = "player"
    SERVER = "server"


@dataclass(frozen=True, slots=True)
class Contribution:
    seat: int
    value: bytes
    source: Source


@dataclass(frozen=True, slots=True)
class DealtDeck:
    """A deck with its per-position salts, leaf hashes and Merkle root (dealing order)."""

    deck: tuple[int, ...]
    salts: tuple[bytes, ...]
    leaves: tuple[bytes, ...]
    root: bytes

    def path(self, position: int) -> list[bytes]:
        return merkle_path(self.leaves, position)


def new_seed() -> bytes:
    """A fresh server seed from the OS CSPRNG (RULES 1.2)."""
    return secrets.token_bytes(SEED_BYTES)


def stand_in_contribution(seed: bytes, seat: int) -> bytes:
    """The contribution of a seat whose player sent none: ``HMAC(seed, "omaha-room/stand-in/v1" ||
    seat byte)``. It follows from the committed seed, so the server cannot pick it after seeing
    the players' values (it could otherwise try values until it liked the deck)."""
    _check_length(seed, SEED_BYTES, "server seed")
    return hmac.new(seed, STAND_IN_TAG + bytes([seat]), hashlib.sha256).digest()


def seed_commitment(seed: bytes) -> bytes:
    """``SHA-256("omaha-room/seed/v1" || 0x00 || seed)``: published before contributions are seen."""
    _check_length(seed, SEED_BYTES, "server seed")
    return hashlib.sha256(SEED_TAG + b"\x00" + seed).digest()


def derivation_key(seed: bytes, contributions: Sequence[Contribution]) -> bytes:
    """HKDF-SHA256 extract: ``HMAC(key="omaha-room/deal/v1", seed || (seat byte || value) per seat)``.

    Contributions are taken in seat order, one per seat, so the key does not depend on the
    order they arrived in.
    """
    _check_length(seed, SEED_BYTES, "server seed")
    seats = [contribution.seat for contribution in contributions]
    if len(set(seats)) != len(seats):
        raise ValueError("One contribution per seat.")
    material = bytearray(seed)
    for contribution in sorted(contributions, key=lambda each: each.seat):
        if not 1 <= contribution.seat <= 255:
            raise ValueError(f"A seat is a number from 1 to 255; got {contribution.seat!r}.")
        _check_length(contribution.value, CONTRIBUTION_BYTES, "contribution")
        material.append(contribution.seat)
        material += contribution.value
    return hmac.new(DEAL_TAG, bytes(material), hashlib.sha256).digest()


def shuffle_stream(key: bytes) -> Iterator[int]:
    """Bytes of ``HMAC-SHA256(key, "omaha-room/shuffle/v1" || uint32_be(i))`` for i = 0, 1, ..."""
    counter = 0
    while True:
        yield from hmac.new(key, SHUFFLE_TAG + counter.to_bytes(4, "big"), hashlib.sha256).digest()
        counter += 1


def uniform_below(stream: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound): big-endian uint32 draws, rejecting those at or above the
    largest multiple of ``bound`` below 2**32, so every result is equally likely."""
    if not 1 <= bound <= 2**32:
        raise ValueError(f"bound must be from 1 to 2**32; got {bound!r}.")
    limit = 2**32 - (2**32 % bound)
    while True:
        value = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if value < limit:
            return value % bound


def shuffle(stream: Iterator[int]) -> tuple[int, ...]:
    """Fisher-Yates (Durstenfeld) from the ordered deck 2c 2d 2h 2s 3c ... As: for i from 51
    down to 1, swap position i with ``uniform_below(stream, i + 1)``."""
    cards = list(FULL_DECK)
    for i in range(CARD_COUNT - 1, 0, -1):
        j = uniform_below(stream, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def card_salts(key: bytes) -> tuple[bytes, ...]:
    """Each position's salt: ``HMAC-SHA256(key, "omaha-room/salt/v1" || position byte)``."""
    return tuple(hmac.new(key, SALT_TAG + bytes([position]), hashlib.sha256).digest() for position in range(CARD_COUNT))


def leaf_hash(position: int, card: int, salt: bytes) -> bytes:
    """``SHA-256(0x00 || "omaha-room/card/v1" || position byte || card text (2 ASCII) || salt)``."""
    _check_length(salt, SALT_BYTES, "salt")
    if not 0 <= position < CARD_COUNT:
        raise ValueError(f"A position is from 0 to {CARD_COUNT - 1}; got {position!r}.")
    return hashlib.sha256(LEAF_PREFIX + CARD_TAG + bytes([position]) + CARD_TEXT[card].encode("ascii") + salt).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def merkle_root(leaves: Sequence[bytes]) -> bytes:
    """RFC 6962 section 2.1: split at the largest power of two below the size, so an odd node is
    carried up unpaired (never duplicated)."""
    if len(leaves) == 1:
        return leaves[0]
    if not leaves:
        raise ValueError("A Merkle tree needs at least one leaf.")
    split = _split(len(leaves))
    return node_hash(merkle_root(leaves[:split]), merkle_root(leaves[split:]))


def merkle_path(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """RFC 6962 audit path of ``leaves[index]``: sibling hashes from the leaf up to the root."""
    if not 0 <= index < len(leaves):
        raise ValueError(f"No leaf {index!r} among {len(leaves)}.")
    if len(leaves) == 1:
        return []
    split = _split(len(leaves))
    if index < split:
        return [*merkle_path(leaves[:split], index), merkle_root(leaves[split:])]
    return [*merkle_path(leaves[split:], index - split), merkle_root(leaves[:split])]


def root_from_path(leaf: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes | None:
    """The root that ``path`` leads to from ``leaf`` at ``index`` of ``size`` leaves (RFC 9162
    2.1.3.2), or None when the path has the wrong length for that position."""
    if not 0 <= index < size:
        return None
    node, last, current = index, size - 1, leaf
    for sibling in path:
        if last == 0:
            return None
        if node % 2 == 1 or node == last:
            current = node_hash(sibling, current)
            while node % 2 == 0 and node != 0:
                node, last = node >> 1, last >> 1
        else:
            current = node_hash(current, sibling)
        node, last = node >> 1, last >> 1
    return current if last == 0 else None


def commit_deck(deck: Sequence[int], salts: Sequence[bytes]) -> DealtDeck:
    """The leaves and root of ``deck`` with ``salts`` (one per position)."""
    validate_deck(deck)
    if len(salts) != CARD_COUNT:
        raise ValueError(f"One salt per position: {CARD_COUNT}.")
    leaves = tuple(
        leaf_hash(position, card, salt) for position, (card, salt) in enumerate(zip(deck, salts, strict=True))
    )
    return DealtDeck(tuple(deck), tuple(salts), leaves, merkle_root(leaves))


def deal(seed: bytes, contributions: Sequence[Contribution]) -> DealtDeck:
    """The deck, salts and Merkle root that ``seed`` and ``contributions`` determine."""
    key = derivation_key(seed, contributions)
    return commit_deck(shuffle(shuffle_stream(key)), card_salts(key))


def hole_card_position(order_index: int, card_index: int, players: int) -> int:
    """Where the ``card_index``-th hole card (0-3) of the ``order_index``-th player dealt to
    (0: left of the button) lies in the deck: cards go one at a time around the table (RULES 1.4)."""
    return card_index * players + order_index


def board_position(board_index: int, players: int) -> int:
    """Where board card 0-4 lies: a burn, the flop, a burn, the turn, a burn, the river (RULES 1.4)."""
    burns = 1 if board_index < 3 else board_index - 1
    return 4 * players + burns + board_index


def _split(size: int) -> int:
    """The largest power of two strictly below ``size`` (size >= 2)."""
    return 1 << ((size - 1).bit_length() - 1)


def _check_length(value: bytes, length: int, name: str) -> None:
    if not isinstance(value, bytes) or len(value) != length:
        raise ValueError(f"A {name} is {length} bytes.")
