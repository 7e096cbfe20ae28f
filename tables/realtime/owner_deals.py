"""A cash table's next hand dealt by the server process playing it, the moment it is due.

The clock (``tables.services.clock.run_clock``, a tick a second in the celery worker or the
embedded clock) deals every table whose pause after a hand is over. So a table waited for the
next tick, up to a second more than its pause, and the tables whose pauses ended within one
second were dealt together, one after another, by one process: their screens rendered there,
published through Redis, read back by the server processes and handed to every socket of those
tables at once, in a burst that queued the actions of every other table behind it.

When a hand ends (a change that says when the next is due: ``TableChange.next_hand_at``), the
process whose sockets show the table to a seated player (``admission.tables_here``) deals the
next hand itself at that moment, on the table's action thread (``action_threads``: after any
frame of the table before it) and its screens go to the sockets here without Redis, as an
action's do. The rows the deal wrote are held here for the hand's first action
(``start_hand_if_due``'s ``hold_rows``), so it is written in one statement as every later
one is, instead of reading the table again under the lock. The clock stays as it was: it
deals a table nobody's process dealt (the process stopped, its player left, a tournament's
table, whose deals wait for its clock), and a deal the clock made first leaves nothing to do
here (``start_hand_if_due`` finds the hand running).
"""

from __future__ import annotations

import asyncio

from django.utils import timezone

from config import layer_sends
from config.shared_awaits import detached
from operations.maintenance import in_maintenance
from tables.services import start_hand_if_due
from tables.services.changes import TableChange

from . import admission
from .action_threads import on_action_thread

LATE_SECONDS = 0.01  # dealt this long after it is due: never before, by this process's clock
_pending: dict[int, asyncio.TimerHandle] = {}  # table -> its next deal, on the server's loop


def on_table_change(change: TableChange) -> None:
    """Subscribed to ``tables.services.changes`` by ``tables.apps``: a change saying when the
    table's next hand is due, made in a server process, has it dealt here then."""
    if change.next_hand_at is None:
        return
    delay = (change.next_hand_at - timezone.now()).total_seconds()
    if delay <= 0:
        return  # due already, or a later change of a hand running: the clock's
    loop = layer_sends.server_loop()
    if loop is not None:
        loop.call_soon_threadsafe(_deal_later, change.table_id, delay + LATE_SECONDS)


def _deal_later(table_id: int, delay: float) -> None:
    if not admission.tables_here.playing(table_id):
        return  # no seated player's screen here: another process's table, or the clock's
    earlier = _pending.pop(table_id, None)
    if earlier is not None:
        earlier.cancel()
    _pending[table_id] = asyncio.get_running_loop().call_later(delay, _deal, table_id)


def _deal(table_id: int) -> None:
    _pending.pop(table_id, None)
    if not admission.tables_here.playing(table_id):
        return
    detached(on_action_thread(table_id, deal_if_due)(table_id), "the next hand dealt here (else by the clock)")


def deal_if_due(table_id: int) -> None:
    """Deal the table's next hand if it is due (on the table's action thread); in maintenance
    no hand starts (``run_clock``)."""
    if not in_maintenance():
        start_hand_if_due(table_id=table_id, hold_rows=True)


def pending() -> frozenset[int]:
    """The tables whose next deal this process has scheduled."""
    return frozenset(_pending)
