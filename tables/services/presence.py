"""Players' connections to a table, and the reconnect grace of RULES 6.3."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from tables.models import Hand, Seat
from tables.selectors.hands import running_hand

from .changes import mark_changed
from .locking import lock_table

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User


def player_disconnected(*, table_id: int, user: User | AnonymousUser, now: datetime | None = None) -> None:
    """Note when a seated player's socket closed. Not broadcast: the others see it with the
    table's next change, so a closing socket does not cost every screen a re-render."""
    if not user.is_authenticated:
        return
    Seat.objects.filter(table_id=table_id, player=user).update(disconnected_at=now or timezone.now())


def player_connected(*, table_id: int, user: User | AnonymousUser, now: datetime | None = None) -> bool:
    """Mark the player connected; if they come back during their own turn, after dropping
    during it, they get the table's reconnect grace once per turn (RULES 6.3). Returns
    whether grace was given."""
    if not user.is_authenticated:
        return False
    marked_gone = Seat.objects.filter(table_id=table_id, player=user, disconnected_at__isnull=False)
    if not marked_gone.exists():
        # Not marked gone (a second tab, a spectator, a reconnect the close never reached):
        # nothing to clear and no grace to give, so no lock. A reconnect storm stays one read a socket.
        return False
    # Not their turn now: no grace to give (6.3 is for a turn they dropped during), so the
    # mark is cleared in one statement, without the table's lock. A turn that reaches them
    # after it finds them connected; one that is theirs now takes the lock below.
    their_turn = Hand.objects.filter(table_id=table_id, state=Hand.State.RUNNING, turn_seat=OuterRef("number"))
    if marked_gone.exclude(Exists(their_turn)).update(disconnected_at=None):
        return False
    now = now or timezone.now()
    with transaction.atomic():
        table = lock_table(table_id)
        seat = Seat.objects.select_for_update().filter(table=table, player=user).first()
        if seat is None:
            return False
        dropped_at, seat.disconnected_at = seat.disconnected_at, None
        seat.save(update_fields=["disconnected_at"])
        hand = running_hand(table)
        if (
            hand is None
            or dropped_at is None
            or hand.turn_seat != seat.number
            or hand.grace_given
            or hand.turn_deadline is None
            or hand.turn_started_at is None
            or dropped_at < hand.turn_started_at
            or now >= hand.turn_deadline
        ):
            return False
        hand.turn_deadline += timedelta(seconds=table.reconnect_grace_seconds)
        hand.grace_given = True
        hand.save(update_fields=["turn_deadline", "grace_given"])
        mark_changed(table)
        return True
