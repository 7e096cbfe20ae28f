"""The tournaments' part of the table clock (``tables.services.table_rules.on_clock``):
scheduled starts and everything a running tournament does between hands."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction

from ..errors import TournamentError
from ..models import Tournament
from .cancel import cancel_locked
from .locks import lock_tournament
from .play import advance, start

logger = logging.getLogger(__name__)


def tick(now: datetime) -> None:
    due = Tournament.objects.filter(
        kind=Tournament.Kind.SCHEDULED, state=Tournament.State.REGISTERING, starts_at__lte=now
    ).values_list("pk", flat=True)
    for tournament_id in due:
        start_scheduled(tournament_id=tournament_id, now=now)
    for tournament_id in Tournament.objects.filter(state=Tournament.State.RUNNING).values_list("pk", flat=True):
        try:
            advance(tournament_id=tournament_id, now=now)
        except TournamentError as error:
            logger.warning("tournament %s: %s", tournament_id, error)


def start_scheduled(*, tournament_id: int, now: datetime) -> None:
    """Start a scheduled tournament at its time (or cancel it below its minimum, RULES 8.12)."""
    from . import notify

    with transaction.atomic():
        tournament, _ = lock_tournament(tournament_id)
        if tournament.state == Tournament.State.REGISTERING:
            if not start(tournament, now):
                cancel_locked(tournament, now)  # short of its minimum (RULES 8.12)
            notify.changed(tournament)
