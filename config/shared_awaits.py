"""A task several coroutines wait for together (each behind ``asyncio.shield``, so that one of
them cancelled does not cancel it for the others)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

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
