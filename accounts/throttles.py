"""Per-IP limits on sign-ups and on failed log-ins, counted in the cache by django-ratelimit.

Both count per client address (``config.client_ip``; IPv6 per /64, django-ratelimit's
default mask) in fixed windows. The rates are settings (``SIGNUP_RATE``,
``LOGIN_FAILURE_RATE``) in django-ratelimit's notation, e.g. ``"5/h"``, ``"20/15m"``.

django-axes still locks a username from the one address that keeps failing; the
failed-log-in limit here slows a password spray (many usernames from one address), and
neither ever locks a username for everyone.

Each check returns the seconds until the window ends when the address is at its limit
(shown on the 429 page and sent as Retry-After), or None when it may go on.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import get_usage

if TYPE_CHECKING:
    from .models import User

SIGNUP_GROUP = "accounts.signup"
LOGIN_FAILURE_GROUP = "accounts.login-failure"


class Usage(TypedDict):
    """What django-ratelimit's ``get_usage`` says of one window (its library is untyped)."""

    count: int
    limit: int
    should_limit: bool
    time_left: int


def _usage(request: HttpRequest, group: str, rate: str, *, increment: bool) -> Usage | None:
    usage: Usage | None = get_usage(request, group=group, key="ip", rate=rate, increment=increment)
    return usage


def _retry_after(usage: Usage | None, *, reached: Callable[[Usage], bool]) -> int | None:
    if usage is None or not (usage["should_limit"] or reached(usage)):
        return None
    return max(1, usage["time_left"])


# --- sign-up ---------------------------------------------------------------------------


def signup_retry_after(request: HttpRequest) -> int | None:
    """This address has already made as many accounts as the window allows."""
    usage = _usage(request, SIGNUP_GROUP, settings.SIGNUP_RATE, increment=False)
    return _retry_after(usage, reached=lambda u: u["count"] >= u["limit"])


def count_signup(request: HttpRequest) -> int | None:
    """Count one account about to be made from this address; a wait if it is one too many.

    Counting and checking are one atomic increment, so two sign-ups sent at once cannot
    both squeeze under the limit.
    """
    usage = _usage(request, SIGNUP_GROUP, settings.SIGNUP_RATE, increment=True)
    return _retry_after(usage, reached=lambda u: False)


# --- failed log-ins --------------------------------------------------------------------


def login_failure_retry_after(request: HttpRequest) -> int | None:
    """This address has failed as many log-ins as the window allows."""
    usage = _usage(request, LOGIN_FAILURE_GROUP, settings.LOGIN_FAILURE_RATE, increment=False)
    return _retry_after(usage, reached=lambda u: u["count"] >= u["limit"])


def count_login_failure(request: HttpRequest) -> None:
    _usage(request, LOGIN_FAILURE_GROUP, settings.LOGIN_FAILURE_RATE, increment=True)


def axes_username(request: HttpRequest, credentials: dict[str, str] | None) -> str:
    """The username django-axes locks (with the address): "Bob" and "bob" are one account,
    so they share one count of failures."""
    if credentials:
        username = credentials.get(settings.AXES_USERNAME_FORM_FIELD)
    else:
        username = request.POST.get(settings.AXES_USERNAME_FORM_FIELD)
    return unicodedata.normalize("NFKC", username or "").lower()


# --- the old password of the password-change form ----------------------------------------
# A stolen session must not become a way to guess the password: wrong old passwords count
# with the address's failed log-ins (LOGIN_FAILURE_RATE) and, like django-axes' lock, per
# account (AXES_FAILURE_LIMIT per AXES_COOLOFF_TIME).

OLD_PASSWORD_GROUP = "accounts.old-password-failure"


def _per_account_rate() -> str:
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    return f"{settings.AXES_FAILURE_LIMIT}/{minutes}m"


def _account_key(group: str, request: HttpRequest) -> str:
    return f"user:{request.user.pk}"


def old_password_retry_after(request: HttpRequest) -> int | None:
    """This address has failed too many log-ins, or this account too many old passwords."""
    retry_after = login_failure_retry_after(request)
    if retry_after is not None:
        return retry_after
    usage: Usage | None = get_usage(
        request, group=OLD_PASSWORD_GROUP, key=_account_key, rate=_per_account_rate(), increment=False
    )
    return _retry_after(usage, reached=lambda u: u["count"] >= u["limit"])


def count_old_password_failure(request: HttpRequest) -> None:
    count_login_failure(request)
    get_usage(request, group=OLD_PASSWORD_GROUP, key=_account_key, rate=_per_account_rate(), increment=True)


# --- data downloads ----------------------------------------------------------------------

DATA_DOWNLOAD_GROUP = "accounts.data-download"


def count_data_download(request: HttpRequest) -> int | None:
    """Count one data download of this account; a wait if it is one too many."""
    usage: Usage | None = get_usage(
        request, group=DATA_DOWNLOAD_GROUP, key=_account_key, rate=settings.ACCOUNT_DATA_RATE, increment=True
    )
    return _retry_after(usage, reached=lambda u: False)


# --- password resets -----------------------------------------------------------------------
# Per client address (PASSWORD_RESET_RATE): past it the page answers 429, which says nothing
# of any account. Per account (PASSWORD_RESET_ACCOUNT_RATE): past it no mail is sent, and the
# page answers as always, so nobody learns whether an address belongs to an account.

RESET_ADDRESS_GROUP = "accounts.password-reset"
RESET_ACCOUNT_GROUP = "accounts.password-reset-account"


def reset_retry_after(request: HttpRequest) -> int | None:
    usage = _usage(request, RESET_ADDRESS_GROUP, settings.PASSWORD_RESET_RATE, increment=False)
    return _retry_after(usage, reached=lambda u: u["count"] >= u["limit"])


def count_reset_request(request: HttpRequest) -> int | None:
    usage = _usage(request, RESET_ADDRESS_GROUP, settings.PASSWORD_RESET_RATE, increment=True)
    return _retry_after(usage, reached=lambda u: False)


def reset_mail_allowed(request: HttpRequest, user: User) -> bool:
    """Count one mail for ``user`` (a reset link, or a verification link asked on the profile);
    False when it would be one too many."""
    usage: Usage | None = get_usage(
        request,
        group=RESET_ACCOUNT_GROUP,
        key=lambda group, request: f"user:{user.pk}",
        rate=settings.PASSWORD_RESET_ACCOUNT_RATE,
        increment=True,
    )
    return usage is None or not usage["should_limit"]
