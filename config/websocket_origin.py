"""Websockets open only from this site's own pages: the full origin must match.

Channels' ``AllowedHostsOriginValidator`` compares the Origin's host with ALLOWED_HOSTS
and ignores scheme and port, so a page on ``http://127.0.0.1:1`` could open the sockets
of a site on ``http://127.0.0.1:8000`` with the player's cookies. This validator does
what Django's CSRF check does for a POST's Origin header: the Origin must equal
``<http|https>://<Host header>`` of the websocket request, with that host in
ALLOWED_HOSTS, or be listed in CSRF_TRUSTED_ORIGINS (``https://*.example.com`` covers
the subdomains). Anything else, a missing Origin included, is closed before accept.

Whether the request was secure: with SECURE_PROXY_SSL_HEADER set (production) and that
header present, its value decides, as ``HttpRequest.is_secure()`` decides for HTTP
(daphne 4 does not put its own X-Forwarded-Proto reading in a websocket's scope); else
the scope's scheme (``wss`` is secure; ASGI's default is ``ws``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain


class SameOriginWebsocketValidator:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SameOriginWebsocketValidator only guards websocket connections")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            try:
                return value.decode("latin1")
            except UnicodeDecodeError:
                return None
    return None


def _is_secure(scope) -> bool:
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        meta_name, secure_value = proxy_header
        # "HTTP_X_FORWARDED_PROTO" -> b"x-forwarded-proto", as Django names request.META keys.
        header_name = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1")
        value = _header(scope, header_name)
        if value is not None:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme", "ws") == "wss"


def _allowed_hosts() -> list[str]:
    # As HttpRequest.get_host(): in DEBUG with no ALLOWED_HOSTS, localhost addresses pass.
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return [".localhost", "127.0.0.1", "[::1]"]
    return settings.ALLOWED_HOSTS


def _own_origin(scope) -> str | None:
    """``<http|https>://<Host header>`` when the Host is one this site serves."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    return f"{'https' if _is_secure(scope) else 'http'}://{host}"


def _trusted(origin: str) -> bool:
    trusted = settings.CSRF_TRUSTED_ORIGINS
    if origin in trusted:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    for entry in trusted:
        if "*" not in entry:
            continue
        pattern = urlsplit(entry)
        if pattern.scheme == parsed.scheme and is_same_domain(parsed.netloc, pattern.netloc.replace("*", "", 1)):
            return True
    return False


def origin_allowed(scope) -> bool:
    origin = _header(scope, b"origin")
    if not origin:
        return False
    return origin == _own_origin(scope) or _trusted(origin)
