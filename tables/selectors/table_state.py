"""One table at one version, as read from the database: what every screen of it is made from.

Screens are rendered from a ``TableState`` and nothing else, so the writer
that just changed a table can hand over what it already holds (no second
read), and a socket that connects reads it with ``load_table_state``.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TypeVar

from tables.engine import Hand as EngineHand
from tables.engine.events import Event
from tables.engine.projection import Views
from tables.models import Hand, HandPlayer, Seat, Table, WaitingListEntry
from tables.selectors.hands import rebuild


@dataclass(frozen=True)
class TableState:
    table: Table
    seats: dict[int, Seat]  # occupied seats by number, with their players
    hand: Hand | None  # the latest hand: it stays on the table after it ends
    hand_players: dict[int, int]  # the latest hand's seat -> user id
    engine: EngineHand | None  # the latest hand replayed from its log
    waiting_list: tuple[WaitingListEntry, ...] = ()  # first in line first

    @property
    def version(self) -> int:
        return self.table.version

    def shown_connected(self, player_id: int) -> TableState:
        """This state with ``player_id``'s seat shown connected, on a copy of that seat (the
        state may be other readers' too: ``shared_reads``)."""
        seats = {}
        for number, seat in self.seats.items():
            if seat.player_id == player_id:
                seat = copy.copy(seat)
                seat.disconnected_at = None
            seats[number] = seat
        return replace(self, seats=seats)

    @property
    def events(self) -> list[Event]:
        """The latest hand's whole log (replay yields the events it was logged from)."""
        return self.engine.events if self.engine is not None else []

    @cached_property
    def views(self) -> Views | None:
        """The latest hand as each viewer may see it (``projection.Views``): what a spectator
        sees worked out once for every screen of this state, not once per viewer and language."""
        return Views(self.engine) if self.engine is not None else None


def load_table_state(table_id: int) -> TableState | None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    seats = {seat.number: seat for seat in Seat.objects.filter(table=table).select_related("player")}
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    return table_state(table, seats, hand)


def table_state(
    table: Table, seats: dict[int, Seat], hand: Hand | None, engine: EngineHand | None = None
) -> TableState:
    """The state of a table whose rows the caller holds; ``engine``: the hand, if already replayed."""
    waiting = tuple(WaitingListEntry.objects.filter(table=table)) if table.waiting_count else ()
    if hand is None:
        return TableState(table, seats, None, {}, None, waiting)
    key = (hand.pk, hand.sequence, hand.merkle_root)  # the root guards against a reused id
    if engine is not None:
        _remember(_REPLAYS, key, engine)
    return TableState(table, seats, hand, _hand_players(hand), _replayed(hand, key), waiting)


# Every screen of a table shows the same hand state: replay it once per state in this process.
# The log is append-only and every append bumps the hand's sequence, so (hand, sequence) names
# one state for good; who played a hand never changes. Callers only read what is cached here.
_REPLAYS: OrderedDict[tuple[int, int, str], EngineHand] = OrderedDict()
_HAND_PLAYERS: OrderedDict[tuple[int, str], dict[int, int]] = OrderedDict()
_KEPT = 512
K = TypeVar("K")
V = TypeVar("V")


def keep_replay(hand: Hand, engine: EngineHand) -> None:
    """Hold ``engine`` as the replay of ``hand`` at its current sequence (the writer that just
    settled it: the screens that read the table again take it instead of replaying the log,
    and its events are the objects the running hand's screens worded)."""
    _remember(_REPLAYS, (hand.pk, hand.sequence, hand.merkle_root), engine)


def keep_hand_players(hand: Hand, players: dict[int, int]) -> None:
    """Hold who plays ``hand`` (seat -> user id) as the deal that wrote them knows them: the
    screens the deal announces do not read them back."""
    _remember(_HAND_PLAYERS, (hand.pk, hand.merkle_root), dict(players))


def _replayed(hand: Hand, key: tuple[int, int, str]) -> EngineHand:
    cached = _REPLAYS.get(key)
    if cached is None:
        cached = _remember(_REPLAYS, key, rebuild(hand))
    return cached


def _hand_players(hand: Hand) -> dict[int, int]:
    key = (hand.pk, hand.merkle_root)
    cached = _HAND_PLAYERS.get(key)
    if cached is None:
        players = dict(HandPlayer.objects.filter(hand=hand).values_list("seat", "player_id"))
        cached = _remember(_HAND_PLAYERS, key, players)
    return cached


def _remember(cache: OrderedDict[K, V], key: K, value: V) -> V:
    cache[key] = value
    while len(cache) > _KEPT:
        cache.popitem(last=False)
    return value


def table_versions(table_ids: Iterable[int]) -> dict[int, int]:
    """The current version of each table (one query): a socket behind it has missed a change."""
    return dict(Table.objects.filter(pk__in=list(table_ids)).values_list("pk", "version"))
