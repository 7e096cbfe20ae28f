"""The Celery app: configured from Django settings (CELERY_*), tasks autodiscovered."""

import os

from celery import Celery

from config import celery_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
celery_logging.install()
