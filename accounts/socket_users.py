"""Who a websocket is for, known without the database.

Channels' ``AuthMiddleware`` reads the user of every new socket from the database, on the one
thread where the consumers' database work queues: in a reconnect storm each handshake waits
there behind the players' actions, and a socket that will be refused (too many per user or
address, a busy server) costs that trip all the same. Here the user a session logs in is
kept in the shared cache, keyed by the session: a socket of a session seen lately knows its
user with two cache reads, and goes to the database only the first time.

What is kept is right as long as the session logs that user in, so it is forgotten when that
ends: on log-out (the session's entry), and on any save of the user (a password change, a
deactivation, a new language: every entry of the user, by a generation number each entry
must match). It lasts ``SECONDS`` at most and never past the session's expiry, and it is
used only while the session, as its engine keeps it in the cache (``cached_db``), still logs
that user in with the hash of their password: a session flushed or expired is gone from there. Each frame
that changes something still checks the session (``socket_sessions.SessionCheck``: on the
database first, then while nothing changed by the same generation), and the sockets of an
ended session are closed.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user, user_logged_out
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import cache, caches
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.module_loading import import_string

from config.db_threads import DatabaseThreads
from config.outages import CHANNEL_LAYER_ERRORS, describe

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

SECONDS = 300


def _cache_failed(message: str, error: Exception, *args: object) -> None:
    """Redis away (restarting) is a line in the log, as the room's other outages are
    (``config.outages``); anything else the cache raises keeps its traceback."""
    if isinstance(error, CHANNEL_LAYER_ERRORS):
        logger.warning(message + " (%s)", *args, describe(error))
    else:
        logger.warning(message, *args, exc_info=error)


def _entry_key(session_key: str) -> str:
    return "socket-user:" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def generation_key(user_id: int) -> str:
    return f"socket-user-generation:{user_id}"


def cached_session_key(session_key: str) -> str | None:
    """Where the session engine keeps the session in the cache (``cached_db``); None for an
    engine without a cache."""
    prefix = getattr(import_string(f"{settings.SESSION_ENGINE}.SessionStore"), "cache_key_prefix", None)
    return None if prefix is None else prefix + session_key


def session_logs_in(session: dict[str, Any] | None, user_id: int, session_hash: str) -> bool:
    """Whether a session as its engine keeps it in the cache (a flushed or expired one is gone
    from there) still logs ``user_id`` in, with the hash of the user's password (Django's check)."""
    if not session or session.get(SESSION_KEY) != str(user_id):
        return False
    return constant_time_compare(session.get(HASH_SESSION_KEY) or "", session_hash)


SESSION_CHECKED = "session_checked"  # the scope's key: (generation, the session's hash) as checked on connecting


def cached_user(session_key: str | None) -> User | None:
    """The user the session logs in, from the cache; None when not known there (or stale)."""
    found = cached_user_checked(session_key)
    return None if found is None else found[0]


def cached_user_checked(session_key: str | None) -> tuple[User, int] | None:
    """The user the session logs in, from the cache, with the generation it was checked at;
    None when not known there (or stale)."""
    if not session_key:
        return None
    in_cache = cached_session_key(session_key)
    if in_cache is None:  # a session engine without a cache: nothing to check the entry against
        return None
    try:
        entry = cache.get(_entry_key(session_key))
        if entry is None:
            return None
        user: User = entry["user"]
        generation = cache.get(generation_key(user.pk), 0)
        session = caches[settings.SESSION_CACHE_ALIAS].get(in_cache)
    except Exception as error:  # the cache away: the database answers
        _cache_failed("socket users: the cache did not answer", error)
        return None
    if entry["generation"] != generation or entry["expires"] <= timezone.now():
        return None
    return (user, int(generation)) if session_logs_in(session, user.pk, user.get_session_auth_hash()) else None


def generation_of(user_id: int) -> int:
    """The user's generation: it goes up on every save of the user (-1: the cache did not answer)."""
    try:
        return int(cache.get(generation_key(user_id), 0))
    except Exception:
        return -1  # never matches: nothing is kept while the cache is away


def _remember(session: SessionBase, user: User, generation: int) -> None:
    """Keep the user a session just logged in (read from the database). The generation is read
    before the user: a save in between leaves the entry stale, never wrong."""
    if not session.session_key:
        return
    expires = min(session.get_expiry_date(), timezone.now() + timedelta(seconds=SECONDS))
    seconds = (expires - timezone.now()).total_seconds()
    if seconds <= 1:
        return
    entry = {"user": user, "generation": generation, "expires": expires}
    try:
        cache.set(_entry_key(session.session_key), entry, timeout=int(seconds))
    except Exception as error:
        _cache_failed("socket users: the user of a session was not kept", error)


def _user_from_database(scope: dict[str, Any]) -> User | AnonymousUser:
    """Channels' way (Django's ``get_user``: the session's user, its session hash checked), and
    the user kept for the session's next sockets."""
    session = scope["session"]
    user_id = session.get(SESSION_KEY)
    generation = generation_of(int(user_id)) if str(user_id).isdigit() else -1
    from accounts.models import User

    request = HttpRequest()
    request.session = session
    user = get_user(request)
    if not isinstance(user, User):
        return AnonymousUser()
    if generation >= 0:
        _remember(session, user, generation)
        scope[SESSION_CHECKED] = (generation, user.get_session_auth_hash())
    return user


# A new socket's user is found on a few threads of their own (``config.db_threads``): the cache's
# three trips, made on the event loop, held up every socket of the process until Redis answered
# (in a connect storm on a busy machine, most of the loop's time); and the database's, when the
# cache does not know the session (after five minutes, or a restart of the cache), made on the
# database thread, queued behind the players' actions: in a room's start-up storm the
# handshakes were answered at the pace of that one thread, 60 to 250 a second, and the later
# ones outlasted their clients' patience.
lookups = DatabaseThreads("socket-users", lambda: 2)


class CachedUserAuthMiddleware(AuthMiddleware):  # type: ignore[misc]  # channels is untyped
    """Channels' ``AuthMiddleware``, with the user of a session seen lately from the cache.

    What it checked is kept in the scope (``SESSION_CHECKED``: the generation, read before the
    user, and the session's hash): the socket's frames go on from there
    (``socket_sessions.SessionCheck``), and its first frame asks the cache, not the database,
    whether anything changed since."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        session = scope["session"]
        session_key = session.session_key
        if not session_key:
            scope["user"]._wrapped = AnonymousUser()
            return
        found = await lookups.run(cached_user_checked)(session_key)
        if found is None:
            scope["user"]._wrapped = await lookups.run(_user_from_database)(scope)
            return
        user, generation = found
        scope["user"]._wrapped = user
        scope[SESSION_CHECKED] = (generation, user.get_session_auth_hash())


def CachedUserAuthMiddlewareStack(inner: Any) -> Any:
    return CookieMiddleware(SessionMiddleware(CachedUserAuthMiddleware(inner)))


def forget_session(session_key: str | None) -> None:
    if not session_key:
        return
    try:
        cache.delete(_entry_key(session_key))
    except Exception as error:  # it expires within SECONDS; each frame that changes something checks the session
        _cache_failed("socket users: a session's user was not forgotten", error)


@receiver(user_logged_out)
def _forget_logged_out_session(sender: object, request: HttpRequest | None, user: object, **kwargs: object) -> None:
    forget_session(getattr(getattr(request, "session", None), "session_key", None))


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _forget_saved_user(sender: object, instance: User, created: bool, **kwargs: object) -> None:
    """Any save (a password, a deactivation, a language): every kept entry of the user is stale."""
    if created:
        return
    key = generation_key(instance.pk)
    try:
        if not cache.add(key, 1, timeout=None):
            cache.incr(key)
    except Exception as error:
        _cache_failed("socket users: user %s's sessions were not forgotten", error, instance.pk)
