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

import ipaddress
from collections.abc import Mapping
from typing import Any

# A client with no address, or one that is not an IP address (a Unix socket, a proxy that
# passed a client's made-up X-Forwarded-For on): all such share one bucket, so rotating
# made-up values is no way around a limit.
UNKNOWN = "0.0.0.0"


def _address(value: Any) -> str:
    try:
        return str(ipaddress.ip_address(str(value).strip()))
    except ValueError:
        return UNKNOWN


def client_ip(request) -> str:
    """The client address of an HTTP request (django-axes and django-ratelimit call this)."""
    return _address(request.META.get("REMOTE_ADDR", ""))


def client_ip_from_scope(scope: Mapping[str, Any]) -> str:
    """The client address of an ASGI connection (a websocket consumer's ``self.scope``)."""
    client = scope.get("client")
    return _address(client[0]) if client else UNKNOWN
