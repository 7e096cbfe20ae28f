"""Reads of the table chat: the recent lines a viewer sees, and whom they have muted."""

from __future__ import annotations

from django.conf import settings

from tables.models import ChatMessage, ChatMute


def muted_ids(viewer_id: int | None) -> frozenset[int]:
    if viewer_id is None:
        return frozenset()
    return frozenset(ChatMute.objects.filter(owner_id=viewer_id).values_list("muted_id", flat=True))


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
