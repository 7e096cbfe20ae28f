"""The time to act (RULES 6): expiring turns and starting hands when they are due.

``expire_turn`` is the timeout counterpart of a click (``turns.act``): the same table lock,
the same sequence check (``turns.check_timeout``), the same ``do_action``, so a click and a
timeout at the same instant never both apply.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from functools import partial

from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from config.outages import DATABASE_ERRORS
from operations import metrics
from operations.clock_health import note_tick
from operations.maintenance import in_maintenance
from tables.engine import Action, ActionKind
from tables.engine.events import Became, EventType
from tables.models import ClockPolicy, Hand, Seat, Table, TimeoutRecord
from tables.selectors.allowance import protected_all_ins_since

from .dealing import start_hand_if_due
from .on_time import on_time_action_on_its_way
from .sitting_out import stand_up_idle_seats, tables_with_idle_seats
from .table_rules import run_clock_listeners
from .time_bank import start_time_bank
from .turns import Turn, announce, check_timeout, do_action
from .waiting_list import expire_offers_at, tables_with_lapsed_offers

logger = logging.getLogger(__name__)

READY_STATES = (Seat.State.PLAYING, Seat.State.WAITING_FOR_BIG_BLIND)


def expire_turn(*, table_id: int, sequence: int, now: datetime | None = None) -> Hand | None:
    """The clock ran out for the seat to act (RULES 6.2, 6.4): first their time bank starts,
    if they have one (``time_bank``); once it is empty too, the engine's timeout action
    (fold, or protected all-in if they have chips in the pot), then sit out of later hands.
    Returns None when the player acted in time (an action that arrived before the deadline
    may still be on its way: ``on_time``), the timeout was already applied, or the bank
    started."""
    now = now or timezone.now()
    with transaction.atomic():
        turn = check_timeout(table_id=table_id, sequence=sequence, now=now)
        if turn is None:
            return None
        seat = turn.seat_of(turn.engine.to_act)
        deadline = turn.hand.turn_deadline
        if deadline is not None and on_time_action_on_its_way(
            table_id=table_id, sequence=sequence, user_id=seat.player_id, deadline=deadline
        ):
            return None  # the player acted in time: their action applies once it has the lock
        if deadline is not None:
            metrics.CLOCK_LAG.observe((now - deadline).total_seconds())
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
        if became == Became.PROTECTED_ALL_IN:
            seat.protected_all_ins_at = [*seat.protected_all_ins_at, turn.now.isoformat()]
            Seat.objects.filter(pk=seat.pk).update(protected_all_ins_at=seat.protected_all_ins_at)
            settled = (turn.settled_seats or {}).get(seat.number)
            if settled is not None:  # the hand ended with it: its screens show the seat as written
                settled.protected_all_ins_at = seat.protected_all_ins_at
            _show_allowance_on_commit(seat.player_id)
        announce(turn)
    return turn.hand


def _timeout_action(turn: Turn, seat: Seat) -> Action:
    """The engine's TIMEOUT, unless the player is past the room's daily protected all-in allowance."""
    engine = turn.engine
    limit = ClockPolicy.current().protected_all_ins_per_day
    if (
        limit is not None
        and engine.timeout_outcome() is Became.PROTECTED_ALL_IN
        and len(protected_all_ins_since(seat.player_id, turn.now)) >= limit  # RULES 6.5
    ):
        legal = engine.legal_actions()
        assert legal is not None  # the seat timing out is to act
        kind = ActionKind.CHECK if legal.can_check else ActionKind.FOLD
        return Action(seat.number, kind)
    return Action(seat.number, ActionKind.TIMEOUT)


def _show_allowance_on_commit(player_id: int) -> None:
    """The player's seats at every table show the protected all-in just used (RULES 6.5). Once
    committed, in a statement of its own: no other table's row is held while this one's is."""

    def refresh() -> None:
        used = [moment.isoformat() for moment in protected_all_ins_since(player_id, timezone.now())]
        Seat.objects.filter(player_id=player_id).update(protected_all_ins_at=used)

    transaction.on_commit(refresh)


def run_clock(*, now: datetime | None = None) -> None:
    """One tick of the table clock: expire overdue turns and waiting-list offers, stand up players
    sitting out past their table's limit (RULES 7.6), start hands that are due.

    Each table's step is its own transaction, and an error in one (a bug, or a table left in a
    state no rule covers) is logged and counted for that table and stops nothing else: the
    other tables keep dealing (``table_failures``). A database that is away is not one table's
    error: it ends the tick, and the next one tries again (``tables.tasks.tick``)."""
    now = now or timezone.now()
    overdue = Hand.objects.filter(state=Hand.State.RUNNING, turn_deadline__lte=now).values_list("table_id", "sequence")
    for table_id, sequence in overdue:
        _isolated(table_id, partial(expire_turn, table_id=table_id, sequence=sequence, now=now))
    for table_id in tables_with_lapsed_offers(now=now):
        _isolated(table_id, partial(expire_offers_at, table_id=table_id, now=now))
    for table_id in tables_with_idle_seats(now=now):  # RULES 7.6
        _isolated(table_id, partial(stand_up_idle_seats, table_id=table_id, now=now))
    run_clock_listeners(now)  # tournaments: starts, levels, eliminations, balancing (RULES 8)
    # At a tournament table an away player is dealt in too (RULES 8.5).
    ready = Q(seats__state__in=READY_STATES) | Q(is_tournament=True, seats__state=Seat.State.SITTING_OUT)
    due = (
        Table.objects.filter(is_active=True, closing=False)
        .filter(Q(next_hand_at__isnull=True) | Q(next_hand_at__lte=now))
        .exclude(hands__state=Hand.State.RUNNING)
        .annotate(
            ready=Count("seats", filter=ready & Q(seats__stack__gt=0)),
            # A cash table whose ready players all closed it waits for one of them (``check_hand_due``).
            here=Count("seats", filter=Q(seats__state__in=READY_STATES, seats__disconnected_at__isnull=True)),
        )
        .filter(ready__gte=2)
        .filter(Q(is_tournament=True) | Q(here__gte=1))
        .values_list("pk", flat=True)
    )
    if in_maintenance():  # running hands finish; none starts until staff end it
        due = due.none()
    for table_id in due:
        _isolated(table_id, partial(start_hand_if_due, table_id=table_id, now=now))
    metrics.CLOCK_TICKS.inc()
    metrics.CLOCK_LAST_TICK.set_to_current_time()
    note_tick()


# Steps of the clock that raised, per table, in this process since it started.
table_failures: Counter[int] = Counter()
# Tables whose last step raised: logged once when they start failing, once when they recover.
_failing: set[int] = set()


def _isolated(table_id: int, step: Callable[[], object]) -> None:
    """Run one table's step of the clock in a transaction of its own; if it raises, roll it back,
    count it, log it (once, with its traceback, until the table recovers) and carry on."""
    try:
        with transaction.atomic():
            step()
    except DATABASE_ERRORS:
        if not connection.is_usable():
            raise  # the database is away: not this table's error (``tables.tasks.tick``)
        _failed(table_id)
    except Exception:
        _failed(table_id)
    else:
        if table_id in _failing:
            _failing.discard(table_id)
            logger.warning("table clock: table %s steps again after %s failures", table_id, table_failures[table_id])


def _failed(table_id: int) -> None:
    table_failures[table_id] += 1
    if table_id not in _failing:
        _failing.add(table_id)
        logger.exception("table clock: table %s failed; the other tables go on", table_id)
