"""The clock's last tick, told to the shared cache by whichever process runs the clock (beat's
worker, or the embedded clock) and shown on the live room page."""

from __future__ import annotations

import contextlib
import time

from django.core.cache import cache

from config.outages import OUTAGES

LAST_TICK_KEY = "clock:last-tick"


def note_tick() -> None:
    # The cache away: the page says no tick was seen (once the key expires); the metrics still count.
    with contextlib.suppress(*OUTAGES):
        cache.set(LAST_TICK_KEY, time.time(), timeout=None)
