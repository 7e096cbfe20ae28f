"""Health checks for the load balancer and metrics for Prometheus.

- ``/healthz``: the process is up (answers without touching anything).
- ``/readyz``: this process can serve: PostgreSQL answers, every migration is applied, the
  channel layer's Redis answers; 503 with what failed otherwise. Both unauthenticated.
- ``/metrics``: Prometheus' text format, for staff or for an address in
  ``METRICS_ALLOWED_NETWORKS`` (404 to everyone else, so the page does not say it exists).
"""

from __future__ import annotations

import ipaddress
import logging

from django.conf import settings
from django.db import connection
from django.http import Http404, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST

from config.client_ip import client_ip
from config.outages import OUTAGES, describe

from . import probes
from .exposition import exposition

logger = logging.getLogger(__name__)


@never_cache
def healthz(request) -> HttpResponse:
    return HttpResponse("ok\n", content_type="text/plain")


@never_cache
def readyz(request) -> JsonResponse:
    checks: dict[str, str] = {}
    try:
        probes.database_answers()
        checks["database"] = "ok"
        checks["migrations"] = "ok" if probes.migrations_applied() else "not applied"
    except OUTAGES as error:
        checks["database"] = describe(error)
        connection.close()  # the next check connects again
    try:
        probes.channel_layer_answers()
        checks["channel_layer"] = "ok"
    except OUTAGES as error:
        checks["channel_layer"] = describe(error)
    ready = all(value == "ok" for value in checks.values())
    return JsonResponse({"ready": ready, "checks": checks}, status=200 if ready else 503)


def may_read_metrics(request) -> bool:
    if getattr(request.user, "is_staff", False) and request.user.is_active:
        return True
    address = ipaddress.ip_address(client_ip(request))
    return any(address in ipaddress.ip_network(network) for network in settings.METRICS_ALLOWED_NETWORKS)


@never_cache
def metrics(request) -> HttpResponse:
    if not may_read_metrics(request):
        raise Http404
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)
