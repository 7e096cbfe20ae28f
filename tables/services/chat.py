"""The table chat: players' messages, the dealer's lines, mutes.

A message is checked (logged in, not muted by staff, not empty, at most ``CHAT_MAX_CHARS``,
within the player's ``CHAT_RATE``), stored as typed and announced on commit to whoever
listens (the notify layer, which renders it escaped and pushes it to the table's sockets).
The dealer says when a hand starts and who won, in the transaction that deals or ends
the hand, after its change is announced (so the felt shows the hand first). Lines older than ``CHAT_RETENTION_HOURS`` are pruned.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from config.numbers import chips
from tables.engine import Hand as EngineHand
from tables.engine.events import EventType
from tables.models import ChatMessage, ChatMute, Seat, Table

from .errors import TableError

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

Listener = Callable[[ChatMessage], None]
_listeners: list[Listener] = []
MuteListener = Callable[[int], None]
_mute_listeners: list[MuteListener] = []
_RATE = re.compile(r"^(\d+)/(\d*)([smh])$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600}
# Control characters would hide or reorder text; tabs and newlines become spaces.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


class ChatRefused(TableError):
    """A message that cannot be sent; the text says why."""


def subscribe(listener: Listener) -> None:
    """``listener(message)`` after a message or dealer line commits."""
    if listener not in _listeners:
        _listeners.append(listener)


def subscribe_mutes(listener: MuteListener) -> None:
    """``listener(owner_id)`` after a player's mutes change."""
    if listener not in _mute_listeners:
        _mute_listeners.append(listener)


def chat_rate() -> tuple[int, int]:
    """``CHAT_RATE`` as (messages, seconds)."""
    found = _RATE.match(settings.CHAT_RATE.strip())
    if not found:
        raise ValueError(f"CHAT_RATE is 'N/s', 'N/m', 'N/h' or e.g. '5/10s'; got {settings.CHAT_RATE!r}.")
    count, multiple, unit = found.groups()
    return int(count), int(multiple or 1) * _UNIT_SECONDS[unit]


def clean_text(text: str) -> str:
    return " ".join(_CONTROL.sub("", text).split())


def send_message(*, user: User | AnonymousUser, table_id: int, text: str, now: datetime | None = None) -> ChatMessage:
    """A player's (or a watcher's) message to a table's chat."""
    now = now or timezone.now()
    if not user.is_authenticated:
        raise ChatRefused(gettext("Log in to chat."))
    # Read now, not from the user row a socket loaded when it connected: a staff mute or
    # unmute takes effect at once on every open socket.
    if get_user_model().objects.filter(pk=user.pk, chat_muted=True).exists():
        raise ChatRefused(gettext("The staff have muted you in chat."))
    text = clean_text(text if isinstance(text, str) else "")
    if not text:
        raise ChatRefused(gettext("Type a message first."))
    if len(text) > (limit := settings.CHAT_MAX_CHARS):
        raise ChatRefused(
            ngettext("A message is at most %(count)s character.", "A message is at most %(count)s characters.", limit)
            % {"count": chips(limit)}
        )
    table = Table.objects.filter(pk=table_id, is_active=True).first()
    if table is None:
        raise ChatRefused(gettext("This table is closed."))
    if not _within_rate(user.pk):
        raise ChatRefused(gettext("You are sending messages too fast: wait a few seconds."))
    with transaction.atomic():
        message = ChatMessage.objects.create(table=table, author=user, text=text, created_at=now)
        prune(now, table_id=table.pk)  # the embedded default has no beat to prune hourly
        _announce_on_commit(message)
    return message


def dealer_line(table: Table, kind: str, params: dict[str, object], now: datetime) -> ChatMessage:
    """The dealer's line (inside the caller's transaction): ``kind`` a ``ChatMessage.Kind``."""
    message = ChatMessage.objects.create(table=table, kind=kind, params=params, created_at=now)
    _announce_on_commit(message)
    return message


def say_hand_started(table: Table, number: int, now: datetime) -> None:
    dealer_line(table, ChatMessage.Kind.HAND_STARTED, {"number": number}, now)


def say_who_won(table: Table, engine: EngineHand, now: datetime) -> None:
    """The dealer's line for each winner of a hand that just ended, with all they won."""
    won: dict[int, int] = {}
    for event in engine.events:
        if event["type"] == EventType.POT_AWARDED:
            for winner in event["winners"]:
                won[winner["seat"]] = won.get(winner["seat"], 0) + winner["amount"]
    names = {seat.seat: seat.name or f"Seat {seat.seat}" for seat in engine.config.seats}
    for seat, amount in won.items():
        dealer_line(table, ChatMessage.Kind.POT_WON, {"player": names[seat], "amount": amount}, now)


def mute(*, user: User | AnonymousUser, player_id: object, table_id: int) -> None:
    """``user`` stops seeing ``player_id``'s messages (everywhere, until unmuted). Only someone
    seated at or chatting at this table now may be muted from it: a mute frame cannot be used
    to learn who else exists, or their names."""
    if not user.is_authenticated:
        raise ChatRefused(gettext("Log in to chat."))
    muted = _player_here(user, player_id, table_id)
    try:
        with transaction.atomic():
            ChatMute.objects.create(owner=user, muted=muted)
    except IntegrityError:
        return  # already muted: nothing changes
    transaction.on_commit(lambda: _mutes_changed(user.pk))


def unmute(*, user: User | AnonymousUser, player_id: object) -> None:
    """Anyone ``user`` muted may be unmuted, wherever they are now."""
    if not user.is_authenticated:
        raise ChatRefused(gettext("Log in to chat."))
    if isinstance(player_id, bool) or not isinstance(player_id, int):
        raise ChatRefused(cannot_mute())
    if not ChatMute.objects.filter(owner=user, muted_id=player_id).delete()[0]:
        raise ChatRefused(cannot_mute())
    transaction.on_commit(lambda: _mutes_changed(user.pk))


def prune(now: datetime | None = None, table_id: int | None = None) -> int:
    """Delete the lines older than the retention (at one table, or all); returns how many."""
    cutoff = (now or timezone.now()) - timedelta(hours=settings.CHAT_RETENTION_HOURS)
    old = ChatMessage.objects.filter(created_at__lt=cutoff)
    deleted, _ = (old.filter(table_id=table_id) if table_id is not None else old).delete()
    return deleted


def cannot_mute() -> str:
    """Every refused mute reads the same, whatever the reason (no such player, not here, oneself)."""
    return gettext("You can mute only someone seated or chatting at this table.")


def _player_here(user: User, player_id: object, table_id: int) -> User:
    if not user.is_authenticated:
        raise ChatRefused(gettext("Log in to chat."))
    if isinstance(player_id, bool) or not isinstance(player_id, int) or player_id == user.pk:
        raise ChatRefused(cannot_mute())
    here = Seat.objects.filter(table_id=table_id, player_id=player_id).exists() or (
        ChatMessage.objects.filter(table_id=table_id, author_id=player_id).exists()
    )
    player = get_user_model().objects.filter(pk=player_id).first() if here else None
    if player is None:
        raise ChatRefused(cannot_mute())
    return player


def _within_rate(user_id: int) -> bool:
    """Count one message in the player's fixed window (one atomic increment in the shared cache)."""
    limit, seconds = chat_rate()
    window = int(time.time() // seconds)
    key = f"chat-rate:{user_id}:{seconds}:{window}"
    cache.add(key, 0, timeout=seconds + 1)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=seconds + 1)
        count = 1
    return count <= limit


def _announce_on_commit(message: ChatMessage) -> None:
    transaction.on_commit(lambda: [listener(message) for listener in _listeners])


def _mutes_changed(owner_id: int) -> None:
    for listener in _mute_listeners:
        listener(owner_id)
