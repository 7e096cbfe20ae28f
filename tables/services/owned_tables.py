"""One owner per table: the process that wrote a table's last action keeps its rows, and applies
the next action from memory, writing it in one round trip.

In one round trip the table's row lock is taken and, once it is held, a stamp is read of every
row an action reads: the table's, the running hand's and each seat's and its player's ``xmin``
(the transaction that wrote that version of the row; any write makes a new one), with the
table's version and the hand's sequence. When the stamp is the one this process left after
its own last write, the rows it holds are the rows in the database, and the action is applied
to them without reading them again; otherwise (another process or path wrote the table since, or nothing is
held) they are read as before. The action is then written in one statement: its events, the
hand's row, the stacks that changed and the table's version.

The lock, the sequence check and the unique (hand, sequence) of the log still make one writer
per table; an entry is taken out while a writer uses it and put back only once its
transaction commits, so a rolled-back change leaves nothing behind; after a crash or a move
the rows and the log are read again, as always.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import psycopg
from django.db import connection, transaction
from django.utils.translation import gettext
from psycopg.types.json import Jsonb

from tables.engine.events import Event
from tables.models import Hand, HandEvent, Seat, Table
from tables.selectors.hands import running_hand

from .errors import TableError

HELD_TABLES = 4096
SeatStamp = tuple[int, str, str]  # (seat id, its xmin, its player's xmin)


@dataclass(frozen=True)
class Stamp:
    table_xmin: str
    version: int
    hand_id: int | None
    hand_xmin: str | None
    sequence: int | None
    seats: tuple[SeatStamp, ...]


@dataclass
class Held:
    stamp: Stamp
    table: Table
    hand: Hand | None
    seats: list[Seat]


_held: OrderedDict[int, Held] = OrderedDict()
_lock = threading.Lock()


def _names() -> dict[str, str]:
    from django.contrib.auth import get_user_model

    return {
        "table": Table._meta.db_table,
        "hand": Hand._meta.db_table,
        "seat": Seat._meta.db_table,
        "event": HandEvent._meta.db_table,
        "user": get_user_model()._meta.db_table,
    }


# The lock and then the stamp, in one round trip: a function (migrations 0017 and 0019) whose
# second statement takes its own snapshot once the lock is held (a single statement that waited
# for the lock would see the rows it does not lock as they were before the writer it waited for
# committed). No row: the table does not exist.
_LOCK_AND_STAMP_SQL = "SELECT * FROM tables_lock_and_stamp(%s)"


def on_postgresql() -> bool:
    """The statements written for PostgreSQL here and in the deal and the settlement run (the
    embedded SQLite takes the ORM's way)."""
    return connection.vendor == "postgresql"


def bound_cursor() -> Any:
    """A cursor that sends its parameters apart from the statement (psycopg's own cursor), for
    the statements of every action, their parameters many and their text always the same,
    whatever the settings say of Django's own cursors (``server_side_binding``, on in
    ``config/settings.py``; off, they quote every value into the statement's text, in Python).
    It goes through Django's cursor wrapper like any other (the queries logged and counted)."""
    connection.ensure_connection()
    return connection._prepare_cursor(psycopg.Cursor(connection.connection))  # type: ignore[attr-defined]  # Django's own wrapping


def _parse_seats(text: str) -> tuple[SeatStamp, ...]:
    if not text:
        return ()
    stamps = []
    for part in text.split(","):
        seat_id, seat_xmin, user_xmin = part.split(":")
        stamps.append((int(seat_id), seat_xmin, user_xmin))
    return tuple(stamps)


def lock(table_id: int) -> tuple[Table, Hand | None, list[Seat], Stamp | None]:
    """Lock the table row (inside atomic()) and return its rows: those this process holds when
    the stamp read under the lock says they are the database's, else read now. The held entry
    is taken out either way (``keep_on_commit`` puts one back). On the embedded SQLite (no row
    versions to stamp, its writes serialised anyway) the rows are read, with no stamp."""
    try:
        table_id = int(table_id)
    except (TypeError, ValueError):
        raise TableError(gettext("That table does not exist.")) from None
    if not on_postgresql():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise TableError(gettext("That table does not exist."))
        return table, running_hand(table), list(Seat.objects.filter(table=table).select_related("player")), None
    stamp = stamp_under_lock(table_id)
    if stamp is None:
        raise TableError(gettext("That table does not exist."))
    with _lock:
        held = _held.pop(table_id, None)
    if held is not None and held.stamp == stamp:
        return held.table, held.hand, held.seats, stamp
    # Read after the stamp: a row written in between looks changed next time, never the reverse.
    table = Table.objects.get(pk=table_id)
    hand = running_hand(table)
    seats = list(Seat.objects.filter(table=table).select_related("player").order_by("pk"))
    return table, hand, seats, stamp


def stamp_under_lock(table_id: int) -> Stamp | None:
    """Lock the table's row (inside atomic()) and read its rows' stamp; None: no such table."""
    with bound_cursor() as cursor:
        cursor.execute(_LOCK_AND_STAMP_SQL, [table_id])
        row = cursor.fetchone()
    return None if row is None else Stamp(row[0], row[1], row[2], row[3], row[4], _parse_seats(row[5]))


def keep_on_commit(table: Table, hand: Hand, seats: list[Seat], stamp: Stamp) -> None:
    """Hold the rows for the table's next writer once this transaction commits (``stamp``:
    theirs as the database has them now)."""

    def keep() -> None:
        with _lock:
            _held[table.pk] = Held(stamp, table, hand, seats)
            _held.move_to_end(table.pk)
            while len(_held) > HELD_TABLES:
                _held.popitem(last=False)

    transaction.on_commit(keep)


def take(table_id: int) -> Held | None:
    """The rows held for the table, taken out (``put_back`` returns them unused): for a writer
    that applies its action to them before taking the lock (``write_action_if_current``)."""
    with _lock:
        return _held.pop(table_id, None)


def put_back(table_id: int, held: Held) -> None:
    """Rows taken and left unused: held again, unless another writer has kept newer ones since."""
    with _lock:
        _held.setdefault(table_id, held)


def forget(table_id: int) -> None:
    with _lock:
        _held.pop(table_id, None)


def write_action(
    *,
    table: Table,
    hand: Hand,
    seats: list[Seat],
    stamp: Stamp,
    events: list[Event],
    first_sequence: int,
    stacks: dict[int, int],
    to_act: int,
    now: datetime,
) -> Stamp:
    """Write a mid-hand action in one statement: append ``events`` (``first_sequence``: the
    number already logged), set the stacks that changed, move the turn to ``to_act`` with its
    clock, count the action on the hand and bump the table's version. The rows held are
    updated to match; returns their new stamp."""
    names = _names()
    changed = [seat for seat in seats if seat.number in stacks and seat.stack != stacks[seat.number]]
    params: list[Any] = []  # Jsonb among them: psycopg adapts it; django-stubs' parameter types do not know it
    event_rows = []
    for offset, event in enumerate(events):
        event_rows.append("(%s, %s, %s, %s, %s)")
        params += [hand.pk, first_sequence + offset, event["type"], Jsonb(event), now]
    parts = [
        f"e AS (INSERT INTO {names['event']} (hand_id, sequence, type, payload, created_at) "
        f"VALUES {', '.join(event_rows)} RETURNING 1)"
    ]
    if changed:
        values = ", ".join(["(%s::bigint, %s::bigint)"] * len(changed))
        parts.append(
            f"s AS (UPDATE {names['seat']} AS seat SET stack = v.stack FROM (VALUES {values}) AS v(id, stack) "
            "WHERE seat.id = v.id RETURNING seat.id, seat.disconnected_at, seat.protected_all_ins_at)"
        )
        for seat in changed:
            params += [seat.pk, stacks[seat.number]]
    deadline = now + timedelta(seconds=table.time_to_act)
    parts.append(
        f"h AS (UPDATE {names['hand']} SET sequence = %s, turn_seat = %s, turn_started_at = %s, "
        "turn_deadline = %s, grace_given = false WHERE id = %s RETURNING xmin::text AS xmin)"
    )
    params += [hand.sequence + 1, to_act, now, deadline, hand.pk]
    parts.append(f"t AS (UPDATE {names['table']} SET version = %s WHERE id = %s RETURNING 1)")
    params += [table.version + 1, table.pk]
    # Two seat columns are written without the table's lock (``presence.player_disconnected``, the
    # clock's allowance refresh): an update of the stack may land on such a version, so they come back.
    returned = "(SELECT array_agg(s.id) FROM s), (SELECT array_agg(s.disconnected_at) FROM s), " \
               "(SELECT array_agg(s.protected_all_ins_at::text) FROM s)" if changed else "NULL, NULL, NULL"  # fmt: skip
    sql = "WITH " + ", ".join(parts) + f" SELECT h.xmin, (SELECT count(*) FROM e), {returned} FROM h"
    with bound_cursor() as cursor:
        cursor.execute(sql, params)
        xmin, written, seat_ids, disconnected, allowances = cursor.fetchone()
    if written != len(events):  # pragma: no cover - the unique (hand, sequence) raises first
        raise RuntimeError("the action's events were not all written")
    return _written(table, hand, changed, stacks, stamp, xmin, (seat_ids, disconnected, allowances), to_act, now,
                    deadline)  # fmt: skip


# The write of ``write_action`` preceded by the lock and the stamp's check, in one function
# (migration 0020): no row when the stamp is no longer the database's (nothing written). Its
# arrays go in PostgreSQL's binary format (``%b``): psycopg writes the text format of an array
# with a regular expression per element, about half of the statement's preparation in Python.
_ACT_IF_CURRENT_SQL = (
    "SELECT * FROM tables_act_if_current(%s, %s, %s, %s, %s, %s, %s, %b::text[], %b::jsonb[], %s, %s, "
    "%b::bigint[], %b::bigint[], %s, %s)"
)


def write_action_if_current(
    *,
    table: Table,
    hand: Hand,
    seats: list[Seat],
    stamp: Stamp,
    events: list[Event],
    first_sequence: int,
    stacks: dict[int, int],
    to_act: int,
    now: datetime,
) -> Stamp | None:
    """``write_action`` for rows held without the table's lock: the lock, the check that
    ``stamp`` is still the database's and the write, in one statement (outside a transaction,
    one round trip with its commit). None when the table was written since: nothing is written,
    and the rows held are left as they were."""
    changed = [seat for seat in seats if seat.number in stacks and seat.stack != stacks[seat.number]]
    deadline = now + timedelta(seconds=table.time_to_act)
    seats_text = ",".join(f"{seat_id}:{seat_xmin}:{user_xmin}" for seat_id, seat_xmin, user_xmin in stamp.seats)
    params: list[Any] = [
        table.pk, stamp.table_xmin, stamp.version, hand.pk, stamp.hand_xmin, stamp.sequence, seats_text,
        [event["type"] for event in events], [Jsonb(event) for event in events], first_sequence, now,
        [seat.pk for seat in changed], [stacks[seat.number] for seat in changed], to_act, deadline,
    ]  # fmt: skip
    with bound_cursor() as cursor:
        cursor.execute(_ACT_IF_CURRENT_SQL, params)
        row = cursor.fetchone()
    if row is None:
        return None
    xmin, written, *unlocked = row
    if written != len(events):  # pragma: no cover - the unique (hand, sequence) raises first
        raise RuntimeError("the action's events were not all written")
    return _written(table, hand, changed, stacks, stamp, xmin, tuple(unlocked), to_act, now, deadline)


def _written(
    table: Table,
    hand: Hand,
    changed: list[Seat],
    stacks: dict[int, int],
    stamp: Stamp,
    xmin: str,
    unlocked_columns: tuple[Any, ...],
    to_act: int,
    now: datetime,
    deadline: datetime,
) -> Stamp:
    """The rows held updated to what an action's statement wrote, and their new stamp.
    ``unlocked_columns``: the changed seats' ids and the two columns written without the lock."""
    seat_ids, disconnected, allowances = unlocked_columns
    unlocked = dict(zip(seat_ids or (), zip(disconnected or (), allowances or (), strict=True), strict=True))
    # The rows held are now what was written: the statement's transaction wrote each new version.
    for seat in changed:
        seat.stack = stacks[seat.number]
        seat.disconnected_at, used = unlocked[seat.pk]
        seat.protected_all_ins_at = None if used is None else json.loads(used)
    hand.sequence += 1
    hand.turn_seat, hand.turn_started_at, hand.turn_deadline, hand.grace_given = to_act, now, deadline, False
    table.version += 1
    written_seats = {seat.pk for seat in changed}
    return Stamp(
        xmin,
        table.version,
        hand.pk,
        xmin,
        hand.sequence,
        tuple(
            (seat_id, xmin if seat_id in written_seats else seat_xmin, user_xmin)
            for seat_id, seat_xmin, user_xmin in stamp.seats
        ),
    )
