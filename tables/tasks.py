"""Celery tasks: the table clock, run every second by beat (see CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from .services.clock import run_clock


@shared_task(ignore_result=True)
def tick() -> None:
    run_clock()
