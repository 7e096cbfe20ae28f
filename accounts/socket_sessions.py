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
from typing import TYPE_CHECKING

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user, get_user_model, user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils.module_loading import import_string

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
            async_to_sync(layer.group_send)(group, {"type": "session.ended"})
        except Exception:  # the per-frame check still refuses the socket's next change
            logger.warning("could not tell the sockets of %s to close", group, exc_info=True)

    transaction.on_commit(send)


def session_is_current(session_key: str | None, user_id: int) -> bool:
    """Whether the session still logs in ``user_id``: not logged out or expired, the password
    unchanged since, the account active (Django's own check, on a fresh read of the session)."""
    if not session_key:
        return False
    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")(session_key=session_key)
    request = HttpRequest()  # all get_user reads of it is its session
    request.session = store
    user = get_user(request)
    return user.is_authenticated and user.pk == user_id


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
