"""The clock's two processes at rest between ticks (RULES 6: the clock ticks every second):
beat sleeps until the tick is due instead of checking again and again the 10 ms before it, and
the worker keeps its database connection from one tick to the next instead of opening one for
each."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from celery import signals
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection, transaction

from config.beat_schedule import ClockScheduler
from config.celery import app
from tables.tasks import tick


class _Counting(ClockScheduler):
    """Sends nothing: notes what it would send, and counts its checks."""

    def __init__(self, *args, **kwargs):
        self.sent: list[float] = []
        self.checks = 0
        super().__init__(*args, **kwargs)

    def apply_entry(self, entry, producer=None):
        if entry.name == "table-clock":
            self.sent.append(time.monotonic())

    def tick(self, *args, **kwargs):
        self.checks += 1
        return super().tick(*args, **kwargs)


def test_the_clock_is_sent_every_second_and_beat_sleeps_in_between(tmp_path, settings):
    assert settings.CELERY_BEAT_SCHEDULER == "config.beat_schedule:ClockScheduler"
    scheduler = _Counting(app=app, schedule_filename=str(tmp_path / "beat-schedule"))
    try:
        started = time.monotonic()
        while time.monotonic() - started < 3.5:
            interval = scheduler.tick()
            if interval and interval > 0:
                time.sleep(interval)
    finally:
        scheduler.close()
    assert 3 <= len(scheduler.sent) <= 5
    gaps = [later - earlier for earlier, later in zip(scheduler.sent, scheduler.sent[1:], strict=False)]
    assert all(0.9 <= gap <= 1.5 for gap in gaps), gaps
    # Two checks a tick (the send, then the sleep to the next), a few more for the other entries:
    # Celery's own drift made it some three hundred a tick.
    assert scheduler.checks <= 4 * len(scheduler.sent) + 6, scheduler.checks


class _Tick:
    """The clock's task as the worker's signals see it."""

    name = tick.name
    request = SimpleNamespace(is_eager=False)


def _run_a_task(fixup: DjangoWorkerFixup) -> None:
    """What the worker does around a task: Celery's Django fixup and the signals, then the task's queries."""
    sender = _Tick()
    fixup.on_task_prerun(sender)
    signals.task_prerun.send(sender=sender, task_id="t", task=sender, args=(), kwargs={})
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    signals.task_postrun.send(sender=sender, task_id="t", task=sender, args=(), kwargs={}, retval=None, state="SUCCESS")
    fixup.on_task_postrun(sender)


@pytest.mark.django_db(transaction=True)
def test_the_worker_keeps_its_database_connection_from_one_task_to_the_next(monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    connection.close()
    fixup = DjangoWorkerFixup(app)  # how the worker closes connections around each task
    _run_a_task(fixup)
    kept = connection.connection
    for _ in range(3):
        _run_a_task(fixup)
    assert kept is not None and connection.connection is kept
    # Past its age (CONN_MAX_AGE) it is closed as Django closes a request's, and the next task opens another.
    connection.close_at = time.monotonic() - 1
    _run_a_task(fixup)
    assert connection.connection is not None and connection.connection is not kept


@pytest.mark.django_db(transaction=True)
def test_a_task_run_where_it_is_sent_leaves_its_callers_transaction_alone(monkeypatch):
    """The embedded default runs its tasks in the caller (``CELERY_TASK_ALWAYS_EAGER``), maybe
    inside the caller's transaction: the connection is not closed under it."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    eager = _Tick()
    eager.request = SimpleNamespace(is_eager=True)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        held = connection.connection
        signals.task_prerun.send(sender=eager, task_id="t", task=eager, args=(), kwargs={})
        signals.task_postrun.send(
            sender=eager, task_id="t", task=eager, args=(), kwargs={}, retval=None, state="SUCCESS"
        )
        assert connection.connection is held
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
