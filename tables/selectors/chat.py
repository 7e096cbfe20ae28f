"""Reads of the table chat: the recent lines a viewer sees, and whom they have muted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings

from tables.models import ChatMessage, ChatMute


def muted_players(viewer_id: int | None) -> list[tuple[int, str]]:
    """(id, name) of the players ``viewer_id`` has muted, by name."""
    if viewer_id is None:
        return []
    rows = ChatMute.objects.filter(owner_id=viewer_id).values_list("muted_id", "muted__username")
    return sorted(rows, key=lambda row: row[1].lower())


def recent_messages(table_id: int, muted: frozenset[int] = frozenset()) -> list[ChatMessage]:
    """The table's latest ``CHAT_RECENT_LINES`` lines, oldest first, without the muted players'."""
    recent = ChatMessage.objects.filter(table_id=table_id).exclude(author_id__in=muted).select_related("author")
    return list(reversed(recent.order_by("-id")[: settings.CHAT_RECENT_LINES]))


@dataclass(frozen=True)
class ChatView:
    """What one viewer's chat panel shows: the recent lines without their muted players', and
    those players (the mutes read once)."""

    muted: frozenset[int]
    lines: list[ChatMessage]
    muted_players: list[tuple[int, str]]


def chat_view(
    table_id: int, viewer_id: int | None, unmuted: Callable[[int], list[ChatMessage]] | None = None
) -> ChatView:
    """``unmuted``: the table's recent lines as read for a viewer who muted nobody, if not
    ``recent_messages``."""
    players = muted_players(viewer_id)
    muted = frozenset(player_id for player_id, _name in players)
    lines = unmuted(table_id) if unmuted is not None and not muted else recent_messages(table_id, muted)
    return ChatView(muted, lines, players)
