"""The language the room speaks to each visitor: a player's own choice, kept in their profile,
else the language cookie, else the browser's Accept-Language (Django's LocaleMiddleware).

The header's switcher posts to ``set_language``; a socket finds its viewer's language with
``language_of_scope``, so two players at one table can read it in two languages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypedDict

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header
from django.views.i18n import set_language as django_set_language

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from .models import User


def supported(code: str | None) -> str | None:
    """``code`` as one of settings.LANGUAGES ("es-ES" -> "es"), or None."""
    if not code:
        return None
    try:
        return get_supported_language_variant(code)
    except LookupError:
        return None


class ProfileLanguageMiddleware:
    """After authentication: a logged-in player's own language wins over cookie and browser."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        user = getattr(request, "user", None)
        language = supported(getattr(user, "language", "")) if getattr(user, "is_authenticated", False) else None
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


def set_language(request: HttpRequest) -> HttpResponseBase:
    """Django's own view (it sets the cookie and goes back to ``next``), and the player's profile."""
    response = django_set_language(request)
    language = supported(request.POST.get("language"))
    user = request.user
    if language and user.is_authenticated and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return response


def language_of_user(user: User | None) -> str:
    """A player's own language, else the room's: what the screens pushed to them are rendered in.
    Log-in and sign-up keep the browser's language in the profile when it has none yet."""
    return supported(getattr(user, "language", "")) or settings.LANGUAGE_CODE


def remember_language(sender: type[User], request: HttpRequest | None, user: User, **kwargs: object) -> None:
    """On log-in: a profile without a language takes the one the player reads the room in."""
    language = supported(getattr(request, "LANGUAGE_CODE", None)) if request is not None else None
    if language and not supported(user.language):
        user.language = language
        user.save(update_fields=["language"])


class SocketScope(TypedDict, total=False):
    """What ``language_of_scope`` reads of a websocket's ASGI scope (Channels fills it)."""

    user: User | AnonymousUser
    cookies: dict[str, str]
    headers: Iterable[tuple[bytes, bytes]]


def language_of_scope(scope: SocketScope) -> str:
    """A websocket viewer's language: the player's own, else the cookie, else the browser's."""
    user = scope.get("user")
    if user is not None and user.is_authenticated and (own := supported(user.language)):
        return own
    cookies = scope.get("cookies") or {}
    if cookie := supported(cookies.get(settings.LANGUAGE_COOKIE_NAME)):
        return cookie
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        if code != "*" and (browser := supported(code)):
            return browser
    return settings.LANGUAGE_CODE
