"""The time to act (RULES 6): expiring turns and starting hands when they are due.

``expire_turn`` is the timeout counterpart of a click (``turns.act``): the same table lock,
the same sequence check (``turns.check_timeout``), the same ``do_action``, so a click and a
timeout at the same instant never both apply.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from operations import metrics
from operations.clock_health import note_tick
from operations.maintenance import in_maintenance
from tables.engine import Action, ActionKind
from tables.engine.events import Became, EventType
from tables.models import ClockPolicy, Hand, Seat, Table, TimeoutRecord

from .dealing import start_hand_if_due
from .table_rules import run_clock_listeners
from .time_bank import start_time_bank
from .turns import Turn, announce, check_timeout, do_action
from .waiting_list import expire_offers

READY_STATES = (Seat.State.PLAYING, Seat.State.WAITING_FOR_BIG_BLIND)


def expire_turn(*, table_id: int, sequence: int, now: datetime | None = None) -> Hand | None:
    """The clock ran out for the seat to act (RULES 6.2, 6.4): first their time bank starts,
    if they have one (``time_bank``); once it is empty too, the engine's timeout action
    (fold, or protected all-in if they have chips in the pot), then sit out of later hands.
    Returns None when the player acted in time, the timeout was already applied, or the
    bank started."""
    now = now or timezone.now()
    with transaction.atomic():
        turn = check_timeout(table_id=table_id, sequence=sequence, now=now)
        if turn is None:
            return None
        seat = turn.seat_of(turn.engine.to_act)
        if turn.hand.turn_deadline is not None:
            metrics.CLOCK_LAG.observe((now - turn.hand.turn_deadline).total_seconds())
        if start_time_bank(turn.hand, seat):  # RULES 6.2 waits until the bank is empty too
            metrics.TIMEOUTS.labels("time_bank").inc()
            announce(turn)
            return None
        if seat.state != Seat.State.LEAVING:  # before the action: it may end the hand, which applies it
            seat.pending_sit_out = True
            seat.save(update_fields=["pending_sit_out"])
        action = _timeout_action(turn, seat)
        events = do_action(turn, action)
        became = next((e["became"] for e in events if e["type"] == EventType.TIMED_OUT), action.kind.value)
        TimeoutRecord.objects.create(player=seat.player, hand=turn.hand, became=became)
        metrics.TIMEOUTS.labels(became).inc()
        announce(turn)
    return turn.hand


def _timeout_action(turn: Turn, seat: Seat) -> Action:
    """The engine's TIMEOUT, unless the player is past the room's daily protected all-in allowance."""
    engine = turn.engine
    limit = ClockPolicy.current().protected_all_ins_per_day
    if limit is not None and engine.timeout_outcome() is Became.PROTECTED_ALL_IN:
        used = TimeoutRecord.objects.filter(
            player=seat.player, became=Became.PROTECTED_ALL_IN, created_at__gte=turn.now - timedelta(hours=24)
        ).count()
        if used >= limit:
            kind = ActionKind.CHECK if engine.legal_actions().can_check else ActionKind.FOLD
            return Action(seat.number, kind)
    return Action(seat.number, ActionKind.TIMEOUT)


def run_clock(*, now: datetime | None = None) -> None:
    """One tick of the table clock: expire overdue turns and waiting-list offers, start hands that are due."""
    now = now or timezone.now()
    overdue = Hand.objects.filter(state=Hand.State.RUNNING, turn_deadline__lte=now).values_list("table_id", "sequence")
    for table_id, sequence in overdue:
        expire_turn(table_id=table_id, sequence=sequence, now=now)
    expire_offers(now=now)
    run_clock_listeners(now)  # tournaments: starts, levels, eliminations, balancing (RULES 8)
    # At a tournament table an away player is dealt in too (RULES 8.5).
    ready = Q(seats__state__in=READY_STATES) | Q(is_tournament=True, seats__state=Seat.State.SITTING_OUT)
    due = (
        Table.objects.filter(is_active=True, closing=False)
        .filter(Q(next_hand_at__isnull=True) | Q(next_hand_at__lte=now))
        .exclude(hands__state=Hand.State.RUNNING)
        .annotate(ready=Count("seats", filter=ready & Q(seats__stack__gt=0)))
        .filter(ready__gte=2)
        .values_list("pk", flat=True)
    )
    if in_maintenance():  # running hands finish; none starts until staff end it
        due = due.none()
    for table_id in due:
        start_hand_if_due(table_id=table_id, now=now)
    metrics.CLOCK_TICKS.inc()
    metrics.CLOCK_LAST_TICK.set_to_current_time()
    note_tick()
