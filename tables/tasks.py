"""Celery tasks run by beat (see CELERY_BEAT_SCHEDULE): the table clock every second, chat pruning hourly."""

import logging

from celery import shared_task
from django.db import close_old_connections

from config.outages import DATABASE_ERRORS
from operations import metrics
from operations.outage_log import OutageLog

from .services import chat
from .services.clock import run_clock

logger = logging.getLogger(__name__)
_outage = OutageLog(logger, "table clock", "each tick tries again")


@shared_task(ignore_result=True)
def tick() -> None:
    try:
        run_clock()
    except DATABASE_ERRORS as error:
        metrics.CLOCK_FAILED_TICKS.inc()
        # The database is restarting: each turn is expired in its own transaction, so what
        # was applied stays applied and the next tick (a second later) applies the rest once.
        _outage.failed(error)
        close_old_connections()
    else:
        _outage.answered()


@shared_task(ignore_result=True)
def prune_chat() -> None:
    chat.prune()
