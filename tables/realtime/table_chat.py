"""A table socket's chat (``consumers.TableConsumer``): the lines pushed to every socket of the
table (``notify.on_chat_message``), without those of the players this viewer muted, and the
whole chat again when the viewer mutes or unmutes someone in any tab."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from channels.db import database_sync_to_async

from tables.presentation.chat import chat_panel_fragments
from tables.selectors.chat import chat_view
from tables.selectors.shared_reads import recent_chats

from .socket_guard import in_language


class TableChat:
    """Of the consumer: its table, viewer, language and ``send_html``; ``muted`` is the chat's."""

    table_id: int | None
    user: Any
    language: str
    send_html: Callable[[str], Awaitable[None]]
    muted: frozenset[int] = frozenset()  # the players whose chat this viewer does not see

    async def chat_message(self, event):
        """A new line for every socket of the table, unless this viewer muted its author."""
        if event["author_id"] is None or event["author_id"] not in self.muted:
            await self.send_html(in_language(event["html"], self.language))

    async def chat_mutes(self, event):
        """This viewer muted or unmuted someone (in any tab): the chat again without them."""
        await self.send_chat()

    async def send_chat(self):
        await self.send_html(await database_sync_to_async(self.chat_snapshot)())

    def chat_snapshot(self, joined_at: float | None = None) -> str:
        """``joined_at``: when the socket joined the table's groups; its recent lines may then be
        a read other sockets of the table share (``shared_reads``)."""
        viewer_id = self.user.pk if self.user.is_authenticated else None
        shared = None if joined_at is None else partial(recent_chats.get, joined_at=joined_at)
        shown = chat_view(self.table_id, viewer_id, shared)
        self.muted = shown.muted
        fragments = chat_panel_fragments(shown.lines, logged_in=viewer_id is not None, muted=shown.muted_players)
        return "".join(fragments.values())
