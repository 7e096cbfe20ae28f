"""The Celery app: configured from Django settings (CELERY_*), tasks autodiscovered."""

import os

from celery import Celery, signals

from config import celery_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
celery_logging.install()


@signals.worker_init.connect
@signals.beat_init.connect
def _serve_metrics(**kwargs) -> None:
    """The worker's and beat's metrics on a port of their own (METRICS_PORT), when set."""
    from operations.exposition import serve_celery_metrics

    serve_celery_metrics()


@signals.task_prerun.connect
@signals.task_postrun.connect
def _database_connections_checked(sender=None, **kwargs) -> None:
    """Around each task a worker runs, what Django does around each request: a connection past
    its age (CONN_MAX_AGE), or one an error left unusable (CONN_HEALTH_CHECKS), is closed, and
    the next query opens another. The rest are kept for the next task (``CELERY_DB_REUSE_MAX``).
    A task run where it is sent (the embedded default's, maybe inside its caller's transaction)
    leaves its caller's connection alone."""
    from django.db import close_old_connections

    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    close_old_connections()
