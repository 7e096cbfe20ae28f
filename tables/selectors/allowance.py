"""The protected all-in allowance (RULES 6.5): the room's limit and a player's use of it."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache

from tables.engine.events import Became
from tables.models import ClockPolicy, TimeoutRecord

WINDOW = timedelta(hours=24)
# The screens read the limit on every change; staff change it rarely. Each process keeps it a
# few seconds, the shared cache keeps it for all of them (no SQL statement on a change), and
# saving the policy in the admin forgets it everywhere.
_POLICY_SECONDS = 10.0
_CACHE_KEY = "tables:protected-all-in-allowance"
_CACHE_SECONDS = 3600
_policy: tuple[float, int | None] | None = None


def allowance_limit() -> int | None:
    """Protected all-ins per rolling 24 hours; None: unlimited. For screens (a few seconds
    late after an edit); the clock reads ``ClockPolicy`` itself."""
    global _policy
    if _policy is None or time.monotonic() - _policy[0] > _POLICY_SECONDS:
        kept = cache.get(_CACHE_KEY)
        if kept is None:
            stored = ClockPolicy.objects.filter(pk=1).values_list("protected_all_ins_per_day", flat=True)
            kept = {"limit": stored[0] if stored else ClockPolicy._meta.get_field("protected_all_ins_per_day").default}
            cache.set(_CACHE_KEY, kept, timeout=_CACHE_SECONDS)
        _policy = (time.monotonic(), kept["limit"])
    return _policy[1]


def forget_allowance_limit() -> None:
    global _policy
    _policy = None
    cache.delete(_CACHE_KEY)


def protected_all_ins_since(player_id: int, now: datetime) -> list[datetime]:
    """When the player's protected all-ins of the rolling 24 hours before ``now`` were, oldest first."""
    return list(
        TimeoutRecord.objects.filter(player_id=player_id, became=Became.PROTECTED_ALL_IN, created_at__gt=now - WINDOW)
        .order_by("created_at")
        .values_list("created_at", flat=True)
    )


@dataclass(frozen=True)
class Allowance:
    """What a seated player reads: how many protected all-ins they have left, and when each used one comes back."""

    limit: int
    left: int
    returns_at: tuple[datetime, ...]  # oldest first


def allowance_of(used_at: list[str], limit: int | None, now: datetime) -> Allowance | None:
    """``used_at``: ISO times of the player's protected all-ins (``Seat.protected_all_ins_at``)."""
    if limit is None:
        return None
    returns = tuple(
        back for back in sorted(datetime.fromisoformat(moment) + WINDOW for moment in used_at) if back > now
    )
    return Allowance(limit=limit, left=max(0, limit - len(returns)), returns_at=returns)
