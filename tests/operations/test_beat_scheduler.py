"""Beat's scheduler wakes when the table clock is due and sleeps in between (RULES 6: the clock
ticks every second), instead of checking again and again the last 10 ms before each tick."""

from __future__ import annotations

import time

from config.beat_schedule import ClockScheduler
from config.celery import app


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
