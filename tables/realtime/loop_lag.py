"""How late a server process's event loop runs, for the operator's dashboard.

The loop reads every socket's frames and hands every change to its sockets; it runs late when
the process, or the machine, has more work than cores. Every ``PROBE_SECONDS`` the process asks
its loop for a callback and notes how late it ran (``omaha_loop_lag_seconds``). Callbacks, not
a task: they end with their loop. Started by the first room socket a loop takes.
"""

from __future__ import annotations

import asyncio

from operations import metrics

PROBE_SECONDS = 0.25
_probing: asyncio.AbstractEventLoop | None = None


def ensure_probing() -> None:
    """Measure the running loop's lag from now on (once per loop)."""
    global _probing
    loop = asyncio.get_running_loop()
    if _probing is loop:
        return
    _probing = loop
    loop.call_later(PROBE_SECONDS, _probe, loop, loop.time() + PROBE_SECONDS)


def _probe(loop: asyncio.AbstractEventLoop, due: float) -> None:
    now = loop.time()
    metrics.LOOP_LAG_SECONDS.observe(max(0.0, now - due))
    if _probing is loop:
        loop.call_later(PROBE_SECONDS, _probe, loop, now + PROBE_SECONDS)
