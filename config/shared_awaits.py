"""Tasks nobody awaits alone: one several coroutines wait for together (each behind
``asyncio.shield``, so that one of them cancelled does not cancel it for the others), and one
nobody awaits at all, run to its end with its error logged (``detached``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from functools import partial
from typing import Any, TypeVar

from channels.exceptions import StopConsumer

from config.outages import OUTAGES, describe

logger = logging.getLogger(__name__)

T = TypeVar("T")


def shared_task(work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """``work`` as a task whose error is raised in every waiter, and counts as retrieved even
    when every waiter was cancelled first (asyncio would log it as never retrieved)."""
    task = asyncio.ensure_future(work)
    task.add_done_callback(_retrieved)
    return task


def _retrieved(task: asyncio.Task) -> None:
    if not task.cancelled():
        task.exception()


_running: set[asyncio.Task] = set()  # held here: the loop keeps only weak references to tasks


def detached(coroutine: Coroutine[Any, Any, Any], what: str) -> asyncio.Task:
    """Run ``coroutine`` to its end, whatever happens to the task that started it. Nobody
    awaits its result: an error is logged here, an outage in one line (``what``: the work, as
    the log names it)."""
    task = held(coroutine)
    report_when_done(task, what)
    return task


def held(coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task:
    """``coroutine`` as a task held until it ends."""
    task = asyncio.get_running_loop().create_task(coroutine)
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task


def report_when_done(task: asyncio.Task, what: str) -> None:
    """Log the error ``task`` ends with, if any (an outage in one line)."""
    task.add_done_callback(partial(_report, what))


def _report(what: str, task: asyncio.Task) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is None or isinstance(error, StopConsumer):
        return
    if isinstance(error, OUTAGES):
        logger.warning("%s: %s", what, describe(error))
    else:
        logger.error("%s failed", what, exc_info=error)
