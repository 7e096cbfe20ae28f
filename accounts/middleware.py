"""Turn a log-in refused for its address into a readable 429 page."""

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async

from .pages import too_many_attempts


def _throttled_response(request):
    return too_many_attempts(request, "login", request.login_throttled_for)


class LoginThrottleMiddleware:
    """Replaces the response of a request whose log-in ``LoginThrottleBackend`` refused."""

    async_capable = True
    sync_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(self.get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self.__acall__(request)
        response = self.get_response(request)
        if getattr(request, "login_throttled_for", None) is not None:
            return _throttled_response(request)
        return response

    async def __acall__(self, request):
        response = await self.get_response(request)
        if getattr(request, "login_throttled_for", None) is not None:
            return await sync_to_async(_throttled_response)(request)
        return response
