"""Turn a log-in refused for its address into a readable 429 page."""

from collections.abc import Awaitable, Callable
from typing import cast

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from .backends import THROTTLED_FOR
from .pages import too_many_attempts

Response = HttpResponseBase | Awaitable[HttpResponseBase]


def _throttled_response(request: HttpRequest) -> HttpResponse:
    retry_after: int = getattr(request, THROTTLED_FOR)  # set by LoginThrottleBackend
    return too_many_attempts(request, "login", retry_after)


class LoginThrottleMiddleware:
    """Replaces the response of a request whose log-in ``LoginThrottleBackend`` refused."""

    async_capable = True
    sync_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Response]) -> None:
        self.get_response = get_response
        if iscoroutinefunction(self.get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Response:
        is_async = iscoroutinefunction(
            self
        )  # named: in the ``if`` its type guard would make ``self`` a bare coroutine function
        if is_async:
            return self.__acall__(request)
        response = self.get_response(request)
        if getattr(request, "login_throttled_for", None) is not None:
            return _throttled_response(request)
        return response

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        response = await cast(Awaitable[HttpResponseBase], self.get_response(request))  # an async chain
        if getattr(request, "login_throttled_for", None) is not None:
            return await sync_to_async(_throttled_response)(request)
        return response
