"""A logged-in session for a player, saved the way ``django.contrib.auth.login`` saves one, for
clients that log in without a password: the suite's websocket communicators, the frame adversary
and the load harness's bots (which send its key as their ``sessionid`` cookie)."""

from __future__ import annotations

from importlib import import_module


def logged_in_session(user, *, expiry: int | None = None):
    """The saved session (``settings.SESSION_ENGINE``'s store) logging ``user`` in; ``expiry``:
    seconds it lasts, the settings' default when None."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    if expiry is not None:
        session.set_expiry(expiry)
    session.save()
    return session
