"""Whether the room is in maintenance: no new hand is dealt, running hands finish."""

from __future__ import annotations

from .models import Maintenance


def current_maintenance() -> Maintenance | None:
    """The open maintenance window, if any (one query on an indexed, tiny table)."""
    return Maintenance.objects.filter(ended_at=None).first()


def in_maintenance() -> bool:
    return Maintenance.objects.filter(ended_at=None).exists()
