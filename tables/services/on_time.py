"""Actions on their way to the table (RULES 6): a click that reached the server before its
turn's deadline is on time, however long the server then takes to apply it.

A socket notes a player's action the moment its frame arrives, before it waits for the
database (``action_arrived``); the clock, finding the turn overdue, leaves it alone while
an action of the player to act that arrived before the deadline is on its way
(``on_time_action_on_its_way``), and the action applies when its turn on the table lock
comes. An action that arrived after the deadline holds nothing: the clock times the turn
out and the action is refused as out of date. The note is cleared once the action is
refused; an action applied moves the turn on, and the clock never asks about a sequence gone,
so its note is left to expire (a trip to the cache saved on every action). A note lasts
``HOLD_SECONDS`` at most: an action stuck longer than that (a server gone) no longer holds
the clock.

The notes live in the shared cache, so a clock in another process sees them. Noting is best
effort: with the cache away the clock runs as it would without them.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.core.cache import cache

from config.outages import OUTAGES, describe

logger = logging.getLogger(__name__)

HOLD_SECONDS = 5


def _key(table_id: int, sequence: int, user_id: int) -> str:
    return f"on-its-way:{table_id}:{sequence}:{user_id}"


def note(*, table_id: int, sequence: int, user_id: int, at: datetime) -> tuple[str, float, int]:
    """The note ``action_arrived`` adds (its cache key, value and seconds), for a caller that adds
    it in a trip to the cache of its own (``frame_budgets.take_noting``)."""
    return _key(table_id, sequence, user_id), at.timestamp(), HOLD_SECONDS


def action_arrived(*, table_id: int, sequence: int, user_id: int, at: datetime) -> bool:
    """Note that the player's action against ``sequence`` arrived ``at``. Returns whether
    this call noted it (then its caller clears it with ``action_done`` if the action is
    refused): the first arrival for a turn is the one that counts."""
    key, value, seconds = note(table_id=table_id, sequence=sequence, user_id=user_id, at=at)
    try:
        return bool(cache.add(key, value, timeout=seconds))
    except OUTAGES as error:
        logger.warning("action arrival not noted (%s): the clock runs as it would", describe(error))
        return False


def action_done(*, table_id: int, sequence: int, user_id: int) -> None:
    """The noted action was refused, or will never be applied (its socket closed): it holds
    the clock no longer."""
    try:
        cache.delete(_key(table_id, sequence, user_id))
    except OUTAGES as error:  # the note expires by itself
        logger.warning("action arrival not cleared (%s): it expires", describe(error))


def on_time_action_on_its_way(*, table_id: int, sequence: int, user_id: int, deadline: datetime) -> bool:
    """Whether an action of ``user_id`` against ``sequence`` that arrived before ``deadline``
    is on its way: the clock must not time the turn out meanwhile."""
    try:
        arrived = cache.get(_key(table_id, sequence, user_id))
    except OUTAGES as error:
        logger.warning("actions on their way not read (%s): the clock runs as it would", describe(error))
        return False
    return arrived is not None and arrived < deadline.timestamp()
