"""The authentication backend that refuses log-ins from an address past its failure limit."""

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from .throttles import login_failure_retry_after

# The request's attribute that holds the seconds to wait, set on a log-in refused here.
THROTTLED_FOR = "login_throttled_for"


class LoginThrottleBackend:
    """First in AUTHENTICATION_BACKENDS: an address past ``LOGIN_FAILURE_RATE`` gets no
    password checked at all until its window ends.

    Raising PermissionDenied stops ``authenticate()`` before any other backend runs (as
    django-axes' backend does); ``LoginThrottleMiddleware`` turns the mark left here into
    the 429 page. Every path that authenticates with a request (the log-in page, the
    admin's log-in) is covered.
    """

    def authenticate(self, request: HttpRequest | None, **credentials: object) -> None:
        if request is None:
            return None
        retry_after = login_failure_retry_after(request)
        if retry_after is not None:
            setattr(request, THROTTLED_FOR, retry_after)  # the mark is no attribute of HttpRequest's type
            raise PermissionDenied("Too many failed log-ins from this address.")
        return None

    # No get_user(): this backend never logs anyone in (so force_login and the session
    # never pick it), like django-axes' standalone backend.
