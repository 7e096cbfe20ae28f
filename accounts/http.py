"""The type of a request behind log-in, for the views' signatures."""

from django.http import HttpRequest

from .models import User


class AuthenticatedHttpRequest(HttpRequest):
    """A request whose ``user`` is logged in: what ``login_required`` and the admin's
    ``admin_view`` let through. A type only: Django makes plain ``HttpRequest``s."""

    user: User
