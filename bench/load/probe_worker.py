"""The production Celery app, plus a count of the SQL statements each worker process runs.

``celery -A bench.load.probe_worker worker`` runs exactly ``config.celery.app``
(see ``query_counter``); prefork children count their own.
"""

from celery.signals import worker_process_init

from config.celery import app  # noqa: F401

from .query_counter import start_counting


@worker_process_init.connect
def _count_in_child(**kwargs):
    start_counting("worker")
