"""A seat cannot be held idle (RULES 7.6): a player sitting out for the table's limit (10
minutes by default), or sitting out while others wait on the table's list when their big
blind comes round, is stood up and cashed out, and the seat goes to the list. A tournament's
tables are not held by anyone's money: an away player stays dealt in there (RULES 8.5)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import BooleanField, DateTimeField, F, Func, Value

from tables.engine.positions import HandPositions, PlayedPositions
from tables.models import Seat, Table

from .changes import mark_changed
from .locking import lock_table
from .occupancy import cash_out_and_free

State = Seat.State
SQL = tuple[str, tuple[Any, ...]]  # a statement's text and its parameters


class _MinutesPast(Func):
    """``since`` plus ``minutes`` minutes is at or before ``now``: the clock's question of every
    seat sitting out, asked of the database. Each of the room's two databases (PostgreSQL, the
    embedded SQLite) adds minutes to a time its own way."""

    output_field = BooleanField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> SQL:
        return self._with(compiler, "{since} + {minutes} * interval '1 minute' <= {now}")

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> SQL:
        # In days, as floats: a tenth of a millisecond's room so the exact moment is never missed
        # (each table's own step, under its lock, checks to the microsecond).
        return self._with(compiler, "julianday({since}) + {minutes} / 1440.0 <= julianday({now}) + 1e-9")

    def _with(self, compiler: Any, form: str) -> SQL:
        parts, params = [], []
        for expression in self.get_source_expressions():
            sql, expression_params = compiler.compile(expression)
            parts.append(sql)
            params.extend(expression_params)
        since, minutes, now = parts
        return "(" + form.format(since=since, minutes=minutes, now=now) + ")", tuple(params)


def tables_with_idle_seats(*, now: datetime) -> set[int]:
    """Tables where someone has sat out for longer than the table allows: found by the database,
    which the clock asks every second (the players sitting out within their limit, however
    many, are not read)."""
    past = _MinutesPast(F("sat_out_at"), F("table__sit_out_minutes"), Value(now, output_field=DateTimeField()))
    idle = Seat.objects.filter(
        past, state=State.SITTING_OUT, sat_out_at__isnull=False, table__is_tournament=False
    ).values_list("table_id", flat=True)
    return set(idle)


def stand_up_idle_seats(*, table_id: int, now: datetime) -> int:
    """One table's part of the clock: stand up and cash out whoever sat out past its limit."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.is_tournament:
            return 0
        limit = timedelta(minutes=table.sit_out_minutes)
        idle = list(
            Seat.objects.select_for_update(of=("self",))
            .select_related("session", "player")
            .filter(table=table, state=State.SITTING_OUT, sat_out_at__lte=now - limit)
        )
        for seat in idle:
            cash_out_and_free(table, seat)
        if idle:
            mark_changed(table)
    return len(idle)


def stand_up_passed_by_big_blind(
    table: Table, seats: dict[int, Seat], previous: Sequence[PlayedPositions], plan: HandPositions
) -> bool:
    """Others wait on the list and the big blind passes a seat sitting out: its player is stood
    up (the caller holds the table lock and deals the planned hand). Returns whether a seat was freed."""
    if table.is_tournament or not table.waiting_count or not previous:
        return False
    last_big_blind, count, taken = previous[0].big_blind_seat, table.seat_count, len(seats)
    passed = set()
    number = last_big_blind % count + 1
    while number != plan.big_blind_seat and number != last_big_blind:
        passed.add(number)
        number = number % count + 1
    for number in sorted(passed):
        seat = seats.get(number)
        if seat is not None and seat.state == State.SITTING_OUT:
            cash_out_and_free(table, seat)
            del seats[number]
    return len(seats) < taken
