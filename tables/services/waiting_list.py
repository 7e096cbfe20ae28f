"""The waiting list of a full table: join, leave, and the offer of a seat that frees.

The first in line is offered a free seat for ``WAITING_LIST_OFFER_SECONDS``; while an offer
runs, that seat is theirs (``take_seat`` refuses it to others). An offer that runs out takes
the player off the list, and the seat goes to the next in line (the clock checks every tick).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tables.models import Seat, Table, WaitingListEntry

from .changes import mark_changed
from .errors import TableError
from .locking import lock_table

if TYPE_CHECKING:
    from accounts.models import User


def join_waiting_list(*, user: User, table_id: int, now: datetime | None = None) -> WaitingListEntry:
    now = now or timezone.now()
    with transaction.atomic():
        table = lock_table(table_id)
        if not table.is_active or table.closing:
            raise TableError(gettext("This table is closed."))
        if Seat.objects.filter(table=table, player=user).exists():
            raise TableError(gettext("You already have a seat at this table."))
        if WaitingListEntry.objects.filter(table=table, player=user).exists():
            raise TableError(gettext("You are already on the waiting list."))
        if seats_free_for(table, user, now) > 0:
            raise TableError(gettext("A seat is free: take it."))
        entry = WaitingListEntry.objects.create(table=table, player=user, joined_at=now)
        _recount(table)
        mark_changed(table)
    return entry


def leave_waiting_list(*, user: User, table_id: int, now: datetime | None = None) -> None:
    now = now or timezone.now()
    with transaction.atomic():
        table = lock_table(table_id)
        deleted, _ = WaitingListEntry.objects.filter(table=table, player=user).delete()
        if not deleted:
            raise TableError(gettext("You are not on the waiting list."))
        _recount(table)
        offer_free_seats(table, now)
        mark_changed(table)


def offers_to_others(table: Table, user: User, now: datetime) -> int:
    running = WaitingListEntry.objects.filter(table=table, offered_until__gt=now)
    return running.exclude(player=user).count()


def free_seat_count(table: Table) -> int:
    return table.seat_count - Seat.objects.filter(table=table).count()


def seats_free_for(table: Table, user: User, now: datetime) -> int:
    """Free seats ``user`` may take: those not held by an offer to someone else."""
    return free_seat_count(table) - offers_to_others(table, user, now)


def seat_taken_by(table: Table, user: User) -> None:
    """``user`` sat down: off the list (their offer, if any, is used)."""
    if table.waiting_count and WaitingListEntry.objects.filter(table=table, player=user).delete()[0]:
        _recount(table)


def offer_free_seats(table: Table, now: datetime) -> bool:
    """Drop the offers that ran out, then offer each free seat not under offer to the next in
    line (the caller holds the table lock). Returns whether anything changed."""
    if not table.waiting_count:
        return False
    expired, _ = WaitingListEntry.objects.filter(table=table, offered_until__lte=now).delete()
    if expired:
        _recount(table)
    entries = list(WaitingListEntry.objects.filter(table=table))
    running = sum(1 for entry in entries if entry.offered_until is not None)
    to_offer = max(0, free_seat_count(table) - running)
    offered = [entry for entry in entries if entry.offered_until is None][:to_offer]
    until = now + timedelta(seconds=settings.WAITING_LIST_OFFER_SECONDS)
    for entry in offered:
        entry.offered_until = until
    WaitingListEntry.objects.bulk_update(offered, ["offered_until"])
    return bool(expired or offered)


def expire_offers(*, now: datetime | None = None) -> None:
    """The clock's part: offers that ran out go to the next in line."""
    now = now or timezone.now()
    for table_id in tables_with_lapsed_offers(now=now):
        expire_offers_at(table_id=table_id, now=now)


def tables_with_lapsed_offers(*, now: datetime) -> set[int]:
    return set(WaitingListEntry.objects.filter(offered_until__lte=now).values_list("table_id", flat=True))


def expire_offers_at(*, table_id: int, now: datetime) -> None:
    """One table's lapsed offers go to the next in line."""
    with transaction.atomic():
        table = lock_table(table_id)
        if offer_free_seats(table, now):
            mark_changed(table)


def _recount(table: Table) -> None:
    """Keep the table's count of waiting players (the screens read the list only when it has some)."""
    table.waiting_count = WaitingListEntry.objects.filter(table=table).count()
    table.save(update_fields=["waiting_count"])
