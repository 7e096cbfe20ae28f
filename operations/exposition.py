"""Serving the metrics: which registry a process exposes, the measurements taken when they
are read, and the Celery processes' own metrics port.

Read by whoever scrapes (every few seconds), never on the action path: the counts of open
tables and running hands, the hands stuck past their deadline, and one round trip to
PostgreSQL and one to Redis, timed.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from config.outages import OUTAGES, describe
from tables.models import Hand, Table

from .probes import redis_client

logger = logging.getLogger(__name__)

STUCK_AFTER = timedelta(seconds=10)  # a running hand whose deadline passed longer ago is stuck


def served_registry() -> CollectorRegistry:
    """This process's metrics, or every process's of its kind in multiprocess mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return registry
    return REGISTRY


class RoomProbe(Collector):
    """Measured when read: tables, running and stuck hands, round trips to PostgreSQL and Redis."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            started = time.perf_counter()
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            database = time.perf_counter() - started
            now = timezone.now()
            tables = Table.objects.filter(is_active=True).count()
            running = Hand.objects.filter(state=Hand.State.RUNNING)
            hands, stuck = running.count(), running.filter(turn_deadline__lt=now - STUCK_AFTER).count()
        except OUTAGES as error:
            logger.warning("metrics: the database did not answer (%s)", describe(error))
            yield GaugeMetricFamily("omaha_database_up", "Whether PostgreSQL answered the last read of the metrics.", 0)
        else:
            yield GaugeMetricFamily("omaha_database_up", "Whether PostgreSQL answered the last read of the metrics.", 1)
            yield GaugeMetricFamily("omaha_database_roundtrip_seconds", "One SELECT 1, timed.", database)
            yield GaugeMetricFamily("omaha_tables_open", "Tables open to play.", tables)
            yield GaugeMetricFamily("omaha_tables_running", "Tables with a hand running.", hands)
            yield GaugeMetricFamily(
                "omaha_hands_stuck", "Running hands whose turn deadline passed more than 10 s ago.", stuck
            )
        redis = redis_client()
        if redis is None:
            return
        try:
            started = time.perf_counter()
            redis.ping()
            yield GaugeMetricFamily("omaha_redis_up", "Whether Redis answered the last read of the metrics.", 1)
            yield GaugeMetricFamily("omaha_redis_roundtrip_seconds", "One PING, timed.", time.perf_counter() - started)
        except OUTAGES as error:
            logger.warning("metrics: Redis did not answer (%s)", describe(error))
            yield GaugeMetricFamily("omaha_redis_up", "Whether Redis answered the last read of the metrics.", 0)


_probes = CollectorRegistry(auto_describe=False)
_probes.register(RoomProbe())


def exposition() -> bytes:
    """The text /metrics serves: the process's metrics, then the measurements taken now."""
    return generate_latest(served_registry()) + generate_latest(_probes)


def serve_celery_metrics() -> None:
    """A Celery worker or beat: its metrics on ``METRICS_PORT`` of ``METRICS_ADDRESS`` (a port of
    each process's own), when set. The port has no log-in: bind it to an address only the
    monitoring network reaches (docs/operations.md)."""
    port = settings.METRICS_PORT
    if port:
        start_http_server(port, addr=settings.METRICS_ADDRESS, registry=served_registry())
        logger.info("metrics on %s:%s", settings.METRICS_ADDRESS, port)
