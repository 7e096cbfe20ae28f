"""Beat's scheduler for the room's clock: Celery's own, without its busy wait.

Celery's scheduler puts each entry on its heap 10 ms before it is due (``Scheduler.adjust``,
a drift of -0.010 s) and, woken then, finds it not yet due, with a few milliseconds left that
the same drift makes negative: it does not sleep them, it checks again at once, some three
hundred times in those 10 ms. For the table clock, due every second, that spinning was all of
beat's CPU (about 9 ms a second, measured: a thousand checks in three seconds). Here an entry
is put on the heap at the moment it is due, and woken then it is.
"""

from __future__ import annotations

from celery.beat import PersistentScheduler


class ClockScheduler(PersistentScheduler):
    """``PersistentScheduler`` (the schedule kept in beat's file) with no drift."""

    def adjust(self, n, drift=0.0):
        return n
