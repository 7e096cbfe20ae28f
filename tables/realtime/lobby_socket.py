"""The lobby's websocket: the live list of tables.

Its rows are rendered once per change, in every language of the room, by the process that
made the change (``notify``); a socket sends its snapshot on connecting and forwards them.
"""

from __future__ import annotations

from tables.presentation.fragments import lobby_rows_fragment
from tables.realtime.notify import LOBBY_GROUP
from tables.selectors.lobby import lobby_rows

from .socket_guard import ListSocket, in_language


class LobbyConsumer(ListSocket):
    """The lobby's live list: rows are rendered once per change by whoever made it (``notify``);
    a socket only sends its snapshot and forwards them."""

    page = "lobby"
    group = LOBBY_GROUP

    def snapshot(self) -> str:
        return lobby_rows_fragment(lobby_rows())

    async def lobby_row(self, event):
        await self.send_html(in_language(event["html"], self.language))

    async def lobby_rows(self, event):
        await self.send_html(in_language(event["html"], self.language))
