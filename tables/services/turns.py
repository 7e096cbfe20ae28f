"""Actions in a running hand, as a check step and a do step.

- ``check_action`` (a player's click) and ``check_timeout`` (the clock) parse, authorise,
  lock the table and check the hand's sequence number, and return the ``Turn`` to act on.
  Nothing is written; a refusal raises and changes nothing.
- ``do_action`` applies one engine action to that turn, folds any leaving player whose turn
  then comes, and records the change: the events are appended, the stacks synced, the clock
  set for the next turn, or the hand settled. The click, the timeout and a leaving player's
  fold all go through it.

Every action request names the sequence it was made against, and the check holds the table
lock until the transaction ends, so a click and a timeout can never both apply.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from operations import metrics
from tables.engine import Action, ActionKind, IllegalAction, away_action
from tables.engine import Hand as EngineHand
from tables.engine.events import Event
from tables.models import Hand, Seat, Table
from tables.selectors.hands import running_hand
from tables.selectors.table_state import TableState, keep_replay, table_state

from . import held_engines, owned_tables
from .changes import announce_written, mark_changed
from .chat import say_who_won
from .errors import StaleAction, TableError
from .event_log import append_events
from .locking import lock_table
from .settlement import settle_hand
from .time_bank import spend_time_bank

if TYPE_CHECKING:
    from accounts.models import User


@dataclass
class Turn:
    """A running hand under the table lock: its rows and its replayed engine state."""

    table: Table
    hand: Hand
    seats: list[Seat]  # every seat at the table, with its player
    engine: EngineHand
    now: datetime
    closed_table: bool = False  # settling the hand closed the table (it was closing)
    settled_seats: dict[int, Seat] | None = None  # the seats as settling the hand left them
    stamp: owned_tables.Stamp | None = None  # the rows' stamp under the lock (``owned_tables``)

    def seat_of(self, number: int | None) -> Seat:
        return next(seat for seat in self.seats if seat.number == number)

    def held_state(self) -> TableState:
        """The table as this turn leaves it, for the screens (no second read)."""
        return table_state(self.table, {seat.number: seat for seat in self.seats}, self.hand, self.engine)

    def settled_state(self) -> TableState:
        """The table as settling the hand left it: its seats as ``after_hand`` wrote them."""
        assert self.settled_seats is not None
        return table_state(self.table, dict(sorted(self.settled_seats.items())), self.hand, self.engine)


def act(
    *, table_id: int, user: User, kind: str, amount: int | None, sequence: int, now: datetime | None = None
) -> Hand:
    """Apply one player action for the seat whose turn it is (RULES 3.3)."""
    now = now or timezone.now()
    hand = _act_as_held(table_id=table_id, user=user, kind=kind, amount=amount, sequence=sequence, now=now)
    if hand is not None:
        metrics.ACTION_WRITES.labels("held").inc()
        return hand
    with transaction.atomic():
        turn, action = check_action(table_id=table_id, user=user, kind=kind, amount=amount, sequence=sequence, now=now)
        events = turn.engine.apply(action)
        events += fold_leaving_players(turn)
        if in_one_trip(turn, events):
            write_in_one_trip(turn, events)
        else:
            record(turn, events)
            announce(turn)
    metrics.ACTION_WRITES.labels("locked").inc()
    return turn.hand


# The kinds a player may send (the clock's timeout is not one of them).
PLAYED_KINDS = frozenset(kind.value for kind in ActionKind if kind is not ActionKind.TIMEOUT)


class _NotAsHeld(Exception):
    """The table was written since its rows were held: nothing of the action is written."""


def _act_as_held(
    *, table_id: int, user: User, kind: str, amount: int | None, sequence: int, now: datetime
) -> Hand | None:
    """Apply the action to the rows and the engine this process holds for the table (it wrote
    the table's last action), before any lock or read, and write it with their stamp: a
    mid-hand action in one round trip, lock, check and commit (``owned_tables.
    write_action_if_current``). None when that cannot decide it, with nothing written: nothing
    held, the table written since, or anything but an action the held hand takes (a stale
    sequence, no seat, an illegal action: what was held is put back unchanged); the caller then
    checks it under the lock, from the rows as they are, as always, and a refusal is made there."""
    if not owned_tables.on_postgresql() or type(table_id) is not int or type(sequence) is not int:
        return None
    held = owned_tables.take(table_id)
    if held is None:
        return None
    hand = held.hand
    seat = next((seat for seat in held.seats if seat.player_id == user.pk), None)
    playable = (
        hand is not None and hand.sequence == sequence and seat is not None and isinstance(kind, str)
        and kind in PLAYED_KINDS
    )  # fmt: skip
    engine = held_engines.take_held(hand) if playable and hand is not None else None
    if engine is None or hand is None or seat is None:
        owned_tables.put_back(table_id, held)
        return None
    turn = Turn(held.table, hand, held.seats, engine, now, stamp=held.stamp)
    try:
        events = engine.apply(Action(seat.number, ActionKind(kind), amount))
    except IllegalAction:  # refused under the lock, from the rows as they are
        held_engines.put_back(hand, engine)  # unchanged by a refusal
        owned_tables.put_back(table_id, held)
        return None
    events += fold_leaving_players(turn)
    try:
        if not in_one_trip(turn, events):
            with transaction.atomic():  # the hand ends, or a time bank was spent: written as always
                if owned_tables.stamp_under_lock(table_id) != held.stamp:
                    raise _NotAsHeld
                record(turn, events)
                announce(turn)
            return hand
        with transaction.atomic() if connection.in_atomic_block else nullcontext():  # else the statement's own
            if not write_in_one_trip(turn, events, held=True):
                raise _NotAsHeld
    except _NotAsHeld:
        return None
    return hand


def in_one_trip(turn: Turn, events: list[Event]) -> bool:
    """Whether the action only moves the hand on (no settling, no time bank spent): then its
    events, the hand's row, the stacks and the table's version go in one statement."""
    return (
        bool(events) and not turn.engine.is_over and turn.hand.time_bank_started_at is None and turn.stamp is not None
    )


def write_in_one_trip(turn: Turn, events: list[Event], *, held: bool = False) -> bool:
    """Record a mid-hand action in one round trip and announce it; the rows, as written, and
    the engine are held for the table's next action once it commits (``owned_tables``).
    ``held``: the rows are held without the table's lock, and written only if their stamp is
    still the database's (``owned_tables.write_action_if_current``): False when the table was
    written since, and nothing is."""
    table, hand, engine = turn.table, turn.hand, turn.engine
    assert turn.stamp is not None and engine.to_act is not None
    write = owned_tables.write_action_if_current if held else owned_tables.write_action
    stamp = write(
        table=table, hand=hand, seats=turn.seats, stamp=turn.stamp, events=events,
        first_sequence=len(engine.events) - len(events), stacks=engine.stacks, to_act=engine.to_act, now=turn.now,
    )  # fmt: skip
    if stamp is None:
        return False
    announce_written(table, held=turn.held_state, lobby=False)
    held_engines.keep_on_commit(hand, engine)
    owned_tables.keep_on_commit(table, hand, turn.seats, stamp)
    return True


def announce(turn: Turn) -> None:
    """Tell the screens: while the hand runs, the rows held here are the new state (no second
    read); once it is settled, chips and seats moved and the screens read the table again.
    The engine is then held for the hand's next action (``held_engines``)."""
    if turn.engine.is_over:
        # Once committed, the settled engine is the hand's replay, and the screens are rendered
        # from the rows settling it wrote (chips and seats moved: read again under the lock
        # then), not read once more; the log's events are those they already worded.
        hand, engine = turn.hand, turn.engine
        transaction.on_commit(lambda: keep_replay(hand, engine))
        held = turn.settled_state if turn.settled_seats is not None else None
        mark_changed(turn.table, held=held, lobby_list=turn.closed_table)
        say_who_won(turn.table, turn.engine, turn.now)
    else:
        mark_changed(turn.table, held=turn.held_state, lobby=False)
        held_engines.keep_on_commit(turn.hand, turn.engine)


def check_action(
    *, table_id: int, user: User, kind: str, amount: int | None, sequence: int, now: datetime
) -> tuple[Turn, Action]:
    """A player's action for the seat whose turn it is (RULES 3.3), checked as far as the
    table can before the engine checks the rules."""
    table, hand, seats, stamp = owned_tables.lock(table_id)
    if hand is None:
        raise StaleAction(gettext("There is no hand in progress."))
    if isinstance(sequence, bool) or not isinstance(sequence, int) or sequence != hand.sequence:
        raise StaleAction(gettext("That action is out of date: the hand has moved on."))
    seat = next((seat for seat in seats if seat.player_id == user.pk), None)
    if seat is None:
        raise TableError(gettext("You have no seat at this table."))
    try:
        action_kind = ActionKind(kind)
    except ValueError:
        raise TableError(gettext("Unknown action %(kind)r.") % {"kind": kind}) from None
    if action_kind is ActionKind.TIMEOUT:
        raise TableError(gettext("Only the table's clock can time a player out."))
    turn = Turn(table, hand, seats, held_engines.take(hand), now, stamp=stamp)
    return turn, Action(seat.number, action_kind, amount)


def check_timeout(*, table_id: int, sequence: int, now: datetime) -> Turn | None:
    """The turn whose time ran out (RULES 6.2, 6.4), or None when the player acted in time or
    the timeout was already applied."""
    table = lock_table(table_id)
    hand = running_hand(table)
    if hand is None or hand.sequence != sequence or hand.turn_deadline is None or now < hand.turn_deadline:
        return None
    seats = list(Seat.objects.filter(table=table).select_related("player"))
    return Turn(table, hand, seats, held_engines.take(hand), now)


def current_turn(table: Table, now: datetime) -> Turn | None:
    """The running hand of a table the caller has locked, if there is one."""
    hand = running_hand(table)
    if hand is None:
        return None
    return Turn(
        table, hand, list(Seat.objects.filter(table=table).select_related("player")), held_engines.take(hand), now
    )


def do_action(turn: Turn, action: Action) -> list[Event]:
    """Apply one action (the engine refuses an illegal one: nothing changes), fold any
    leaving player whose turn comes next, and record it all. Returns the new events."""
    events = turn.engine.apply(action)
    events += fold_leaving_players(turn)
    record(turn, events)
    return events


def fold_leaving_players(turn: Turn) -> list[Event]:
    """A leaving player's hand is folded when its turn comes; at a tournament table an away
    player checks if they can and folds otherwise, at once (RULES 8.5)."""
    engine, events = turn.engine, []
    leaving = {seat.number for seat in turn.seats if seat.state == Seat.State.LEAVING}
    away = {seat.number for seat in turn.seats if turn.table.is_tournament and seat.state == Seat.State.SITTING_OUT}
    while not engine.is_over and (engine.to_act in leaving or engine.to_act in away):
        if engine.to_act in leaving:
            events += engine.apply(Action(engine.to_act, ActionKind.FOLD))
        else:
            legal = engine.legal_actions()
            assert legal is not None
            events += engine.apply(away_action(legal))
    return events


# What an action changes on the hand's row (not its deck, configuration or commitments, which
# need not be written again with every action).
CHANGED_BY_AN_ACTION = ["sequence", "turn_seat", "turn_started_at", "turn_deadline", "grace_given",
                        "time_bank_started_at", "state", "ended_at"]  # fmt: skip


def record(turn: Turn, events: list[Event]) -> None:
    """Append the events, sync the stacks, set the clock for the next turn or settle the hand."""
    if not events:
        return
    table, hand, engine = turn.table, turn.hand, turn.engine
    # The engine replayed the whole log, so the new events follow all the logged ones.
    append_events(hand, events, first_sequence=len(engine.events) - len(events))
    hand.sequence += 1
    stacks = engine.stacks
    changed = [seat for seat in turn.seats if seat.number in stacks and seat.stack != stacks[seat.number]]
    for seat in changed:
        seat.stack = stacks[seat.number]
    Seat.objects.bulk_update(changed, ["stack"])
    spend_time_bank(hand, turn.seats, turn.now)
    if engine.is_over:
        turn.settled_seats = {}
        turn.closed_table = settle_hand(table, hand, engine, turn.now, turn.settled_seats)
    else:
        hand.turn_seat = engine.to_act
        hand.turn_started_at = turn.now
        hand.turn_deadline = turn.now + timedelta(seconds=table.time_to_act)
        hand.grace_given = False
    hand.save(update_fields=CHANGED_BY_AN_ACTION)
