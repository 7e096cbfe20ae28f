"""Celery tasks run by beat (see CELERY_BEAT_SCHEDULE): the table clock every second, chat pruning hourly."""

from celery import shared_task

from .services import chat
from .services.clock import run_clock


@shared_task(ignore_result=True)
def tick() -> None:
    run_clock()


@shared_task(ignore_result=True)
def prune_chat() -> None:
    chat.prune()
