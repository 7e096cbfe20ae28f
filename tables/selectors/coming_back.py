"""A player coming back to a table they left (RULES 7.5, against "ratholing")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings

from tables.models import SeatSession


@dataclass(frozen=True)
class ComingBack:
    """The player left this table ``stack`` chips and ``time_bank_ms`` of time bank ago less than
    the room's window: until ``until`` they buy in for at least ``stack`` (even above the table
    maximum) and sit down with that time bank."""

    stack: int
    time_bank_ms: int | None
    until: datetime


def coming_back(*, player_id: int, table_id: int, now: datetime) -> ComingBack | None:
    window = timedelta(minutes=settings.RETURN_TO_TABLE_MINUTES)
    last = (
        SeatSession.objects.filter(
            player_id=player_id, table_id=table_id, ended_at__isnull=False, ended_at__gt=now - window
        )
        .order_by("-ended_at")
        .values_list("cashed_out", "time_bank_ms_left", "ended_at")
        .first()
    )
    if last is None:
        return None
    cashed_out, time_bank_ms, ended_at = last
    if ended_at is None:  # never: the filter keeps only ended occupancies
        return None
    return ComingBack(stack=cashed_out or 0, time_bank_ms=time_bank_ms, until=ended_at + window)
