"""The tournaments' part of the table clock (``tables.services.table_rules.on_clock``):
scheduled starts and everything a running tournament does between hands."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction

from config.outages import DATABASE_ERRORS

from ..errors import TournamentError
from ..models import Tournament
from .cancel import cancel_locked
from .locks import lock_tournament
from .play import advance, start

logger = logging.getLogger(__name__)


def tick(now: datetime) -> None:
    """Each tournament in its own transaction; one that fails is logged and tried again at the
    next tick, and never stops the clock of the other tournaments or of the cash tables."""
    due = Tournament.objects.filter(
        kind=Tournament.Kind.SCHEDULED, state=Tournament.State.REGISTERING, starts_at__lte=now
    ).values_list("pk", flat=True)
    for tournament_id in due:
        _guarded(start_scheduled, tournament_id, now)
    for tournament_id in Tournament.objects.filter(state=Tournament.State.RUNNING).values_list("pk", flat=True):
        _guarded(advance, tournament_id, now)


def _guarded(step, tournament_id: int, now: datetime) -> None:
    try:
        step(tournament_id=tournament_id, now=now)
    except TournamentError as error:
        logger.warning("tournament %s: %s", tournament_id, error)
    except DATABASE_ERRORS:
        raise  # the table clock's own handling: the next tick tries again
    except Exception:
        logger.exception("tournament %s: the clock step failed; the next tick tries again", tournament_id)


def start_scheduled(*, tournament_id: int, now: datetime) -> None:
    """Start a scheduled tournament at its time (or cancel it below its minimum, RULES 8.12)."""
    from . import notify

    with transaction.atomic():
        tournament, _ = lock_tournament(tournament_id)
        if tournament.state == Tournament.State.REGISTERING:
            if not start(tournament, now):
                cancel_locked(tournament, now)  # short of its minimum (RULES 8.12)
            notify.changed(tournament)
