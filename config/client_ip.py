"""The one place that says where a client's IP address is read from.

The deployment assumes exactly one trusted proxy hop in front of daphne, and daphne
reachable only through it. Daphne runs with ``--proxy-headers``, so daphne itself puts
the address from the proxy's ``X-Forwarded-For`` into ``REMOTE_ADDR`` (HTTP) and into
``scope["client"]`` (websockets). Nothing here parses forwarding headers: a header that
reached the application unchecked would be whatever a client chose to send.

Used by django-axes (``AXES_CLIENT_IP_CALLABLE``), by the rate limits
(``RATELIMIT_IP_META_KEY``) and by websocket consumers (``client_ip_from_scope``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

UNKNOWN = "0.0.0.0"  # a client without an address (a Unix socket): one shared bucket, never a bypass


def client_ip(request) -> str:
    """The client address of an HTTP request (django-axes and django-ratelimit call this)."""
    return request.META.get("REMOTE_ADDR") or UNKNOWN


def client_ip_from_scope(scope: Mapping[str, Any]) -> str:
    """The client address of an ASGI connection (a websocket consumer's ``self.scope``)."""
    client = scope.get("client")
    if client and client[0]:
        return str(client[0])
    return UNKNOWN
