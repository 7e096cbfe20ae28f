"""A seat cannot be held idle (RULES 7.6): a player sitting out for the table's limit (10
minutes by default), or sitting out while others wait on the table's list when their big
blind comes round, is stood up and cashed out, and the seat goes to the list. A tournament's
tables are not held by anyone's money: an away player stays dealt in there (RULES 8.5)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction

from tables.engine.positions import HandPositions, PlayedPositions
from tables.models import Seat, Table

from .changes import mark_changed
from .locking import lock_table
from .occupancy import cash_out_and_free

State = Seat.State


def tables_with_idle_seats(*, now: datetime) -> set[int]:
    """Tables where someone has sat out for longer than the table allows."""
    idle = Seat.objects.filter(
        state=State.SITTING_OUT, sat_out_at__isnull=False, table__is_tournament=False
    ).values_list("table_id", "sat_out_at", "table__sit_out_minutes")
    return {
        table_id
        for table_id, since, minutes in idle
        if since is not None and since + timedelta(minutes=minutes) <= now  # (none is None: filtered)
    }


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
