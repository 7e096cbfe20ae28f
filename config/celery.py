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
