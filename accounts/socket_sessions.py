"""Open websockets end with the session that opened them.

Every socket of a logged-in user listens on two channel groups: the user's and its
session's. Logging out ends that session's sockets; a password change or a deactivation
ends every socket of the user (a password change keeps the session it was made in valid, and
its pages reconnect at once). The sockets close with ``SESSION_ENDED_CLOSE_CODE``, on which
the page reloads and so shows whoever is logged in now. Consumers also check the session
again on every frame that changes something, so a lost message cannot leave a socket acting
for a session that is gone.
"""

from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING, Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user, get_user_model, user_logged_out
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils.module_loading import import_string

from config import layer_sends

from . import socket_users

if TYPE_CHECKING:
    from .models import User

logger = logging.getLogger(__name__)

# 4000-4999 are the application's own; the page's script reloads on this one.
SESSION_ENDED_CLOSE_CODE = 4401


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def session_group(session_key: str) -> str:
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def end_sockets(group: str) -> None:
    """Tell every socket in ``group`` to close (after the current transaction commits)."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            layer_sends.send(layer, layer.group_send, group, {"type": "session.ended"})
        except Exception:  # the per-frame check still refuses the socket's next change
            logger.warning("could not tell the sockets of %s to close", group, exc_info=True)

    transaction.on_commit(send)


def _logged_in_user(session_key: str | None, user_id: int) -> User | None:
    """The user if the session still logs in ``user_id``: not logged out or expired, the
    password unchanged since, the account active (Django's own check, on a fresh read of the
    session)."""
    if not session_key:
        return None
    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")(session_key=session_key)
    request = HttpRequest()  # all get_user reads of it is its session
    request.session = store
    user = get_user(request)
    return user if user.is_authenticated and user.pk == user_id else None


class SessionCheck:
    """Whether a socket's session still logs its user in, checked on each frame that changes
    something, at the cost of one trip to the cache while nothing changed.

    The socket's handshake made Django's check (or found it made lately: ``socket_users``),
    having read the user's generation first (it goes up on every save of the user, so a
    password change or a deactivation in between leaves it stale, never wrong); a frame with no
    such check to go on (and any after a doubt) makes it on the database. Every other frame
    reads, in one trip, the session as its engine keeps it in the cache (``cached_db``: a
    flushed or expired session is gone from there) and the generation: the session still
    logging the user in with the hash of the password checked then, and the generation
    unchanged, the user is as checked. Anything else (the cache away, the session not in it,
    another engine) is Django's check again."""

    def __init__(self, session_key: str | None, user_id: int, checked: tuple[int, str] | None = None):
        """``checked``: (the generation, the session's hash) as the socket's handshake checked
        them (``socket_users.SESSION_CHECKED``): the first frame then goes on from there."""
        self.session_key = session_key
        self.user_id = user_id
        self._checked: tuple[int, str] | None = checked  # (the generation, the session's hash) of the last check
        # The entries (as the cache holds them: undecoded) last found to log the user in as
        # checked: the same bytes again are the same answer, without decoding the session.
        self._entries_current: tuple[object, object] | None = None

    def cache_keys(self) -> tuple[str, ...]:
        """The cache entries the next check reads (the session as its engine keeps it, the
        user's generation), for a caller that reads them in a trip of its own, the frame's
        budget's (``tables.realtime.frame_budgets``), and hands them to ``current``; () when
        the next check reads no entry of the default cache."""
        if not self.session_key or self._checked is None or settings.SESSION_CACHE_ALIAS != "default":
            return ()
        session_key = socket_users.cached_session_key(self.session_key)
        return () if session_key is None else (session_key, socket_users.generation_key(self.user_id))

    def current(self, read: dict[str, Any] | None = None) -> bool:
        """``read``: the entries ``cache_keys`` names, read by the caller as the default cache
        holds them, undecoded (key -> its bytes, an entry not there left out): the check costs
        no trip of its own."""
        if not self.session_key:
            return False
        if self._checked is not None and self._unchanged(*self._checked, read):
            return True
        generation = socket_users.generation_of(self.user_id)  # before the user (above)
        user = _logged_in_user(self.session_key, self.user_id)
        self._checked = (generation, user.get_session_auth_hash()) if user is not None and generation >= 0 else None
        self._entries_current = None
        return user is not None

    def _unchanged(self, generation: int, session_hash: str, read: dict[str, Any] | None) -> bool:
        assert self.session_key is not None  # ``current`` checked
        session_key = socket_users.cached_session_key(self.session_key)
        if session_key is None:
            return False
        generation_key = socket_users.generation_key(self.user_id)
        entries = None
        try:
            if read is not None and settings.SESSION_CACHE_ALIAS == "default":
                entries = (read.get(session_key), read.get(generation_key))
                if entries == self._entries_current:
                    return True  # the very entries found current last time
                backend = caches["default"]
                if not isinstance(backend, RedisCache):  # entries are read so only from Redis
                    return False
                loads = backend._cache._serializer.loads  # type: ignore[attr-defined]  # the cache's own (undeclared)
                found = {key: loads(value) for key, value in read.items()}
            elif settings.SESSION_CACHE_ALIAS == "default":
                found = cache.get_many([session_key, generation_key])
            else:
                found = {generation_key: cache.get(generation_key)}
                found[session_key] = caches[settings.SESSION_CACHE_ALIAS].get(session_key)
        except Exception:  # the cache away: the database answers
            return False
        unchanged = socket_users.session_logs_in(found.get(session_key), self.user_id, session_hash) and (
            int(found.get(generation_key) or 0) == generation
        )
        self._entries_current = entries if unchanged else None
        return unchanged


@receiver(user_logged_out)
def _logged_out(sender: type[User], request: HttpRequest | None, user: User | None, **kwargs: object) -> None:
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        end_sockets(session_group(key))


# Noted on the instance before its save, read after it: the user model has no such field.
_PASSWORD_CHANGED = "_password_changed"


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def _note_password_change(
    sender: type[User], instance: User, update_fields: frozenset[str] | None = None, **kwargs: object
) -> None:
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = get_user_model().objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    setattr(instance, _PASSWORD_CHANGED, stored is not None and stored != instance.password)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _end_sockets_of_changed_user(sender: type[User], instance: User, created: bool, **kwargs: object) -> None:
    if created:
        return
    if getattr(instance, _PASSWORD_CHANGED, False) or not instance.is_active:
        setattr(instance, _PASSWORD_CHANGED, False)
        end_sockets(user_group(instance.pk))
