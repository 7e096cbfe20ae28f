"""The engine state of each running hand this process last wrote, kept after the commit so
the next action on it need not read and replay the whole log.

One entry per hand, keyed by what identifies the log it was built from: the hand's id, its
deck commitment and its sequence. A writer reads the hand row under the table lock, so a
held engine is used only when no other process (or thread) wrote the hand since; otherwise
the log is replayed as before. An engine is taken out while a writer uses it and put back
only once its transaction commits, so a rolled-back change leaves nothing behind; after a
crash the log is the state, as it always was.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.db import transaction

from tables.engine import Hand as EngineHand
from tables.models import Hand
from tables.selectors.hands import rebuild

HELD_HANDS = 4096  # the most recently written hands; each is a few KB
_held: OrderedDict[int, tuple[tuple[str, int], EngineHand]] = OrderedDict()
_lock = threading.Lock()


def _key(hand: Hand) -> tuple[str, int]:
    return (hand.merkle_root, hand.sequence)


def take(hand: Hand) -> EngineHand:
    """The engine state of ``hand`` as its row says it is now (read under the table lock)."""
    with _lock:
        entry = _held.pop(hand.pk, None)
    if entry is not None and entry[0] == _key(hand):
        return entry[1]
    return rebuild(hand)


def take_held(hand: Hand) -> EngineHand | None:
    """The engine held for ``hand`` as the rows held with it say it is, taken out; None when
    none is (the caller reads the rows under the lock, and ``take`` finds one held for the
    hand as they say it is, or replays the log)."""
    with _lock:
        entry = _held.get(hand.pk)
        if entry is None or entry[0] != _key(hand):
            return None
        del _held[hand.pk]
    return entry[1]


def put_back(hand: Hand, engine: EngineHand) -> None:
    """An engine taken by ``take_held`` and left unchanged: held again, unless a writer has
    kept another for the hand since."""
    with _lock:
        _held.setdefault(hand.pk, (_key(hand), engine))


def keep_on_commit(hand: Hand, engine: EngineHand) -> None:
    """Hold ``engine`` for the hand's next writer once this transaction commits (after the
    callbacks registered before this one: the screens are rendered from it first)."""
    if engine.is_over:
        return
    key = _key(hand)

    def keep() -> None:
        with _lock:
            _held[hand.pk] = (key, engine)
            _held.move_to_end(hand.pk)
            while len(_held) > HELD_HANDS:
                _held.popitem(last=False)

    transaction.on_commit(keep)
