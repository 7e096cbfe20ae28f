"""The page shown when an address has made too many sign-ups or failed too many log-ins."""

import math

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

TEMPLATE = "registration/too_many_attempts.html"


def too_many_attempts(request: HttpRequest, what: str, retry_after: int) -> HttpResponse:
    """HTTP 429 with a page that says what was refused and for about how long."""
    response = render(request, TEMPLATE, {"what": what, "minutes": max(1, math.ceil(retry_after / 60))}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
