"""The lobby's websocket: the live list of tables.

Its rows are rendered once per change, in every language of the room, by the process that
made the change (``notify``); a socket sends its snapshot on connecting and forwards them.
"""

from __future__ import annotations

from django.utils.translation import gettext

from tables.presentation.fragments import lobby_rows_fragment
from tables.realtime.notify import LOBBY_GROUP
from tables.selectors.lobby import lobby_rows

from .snapshot_threads import on_snapshot_thread
from .socket_guard import GuardedConsumer, in_language


class LobbyConsumer(GuardedConsumer):
    """The lobby's live list: rows are rendered once per change by whoever made it (``notify``);
    a socket only sends its snapshot and forwards them."""

    page = "lobby"

    async def connect(self):
        if await self.busy_refusal():
            return
        try:
            if not await self.admit():
                return
            await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
            # On a snapshot thread, as a table's: a loop of lobby connects does not queue on the
            # database thread ahead of the players' actions.
            await self.send_html(await on_snapshot_thread(_lobby_snapshot)())
        finally:
            self.settled()

    async def disconnect(self, code):
        await self.release()
        await self.leave_groups([LOBBY_GROUP])

    def memberships(self) -> list[str]:
        return [*super().memberships(), LOBBY_GROUP]

    async def catch_up(self) -> None:
        await self.send_html(await on_snapshot_thread(_lobby_snapshot)())

    async def receive(self, text_data=None, bytes_data=None):
        if not self.frame_allowed():
            await self.refuse(gettext("Too many messages: this connection is closed. Reload the page."))

    async def lobby_row(self, event):
        await self.send_html(in_language(event["html"], self.language))

    async def lobby_rows(self, event):
        await self.send_html(in_language(event["html"], self.language))


def _lobby_snapshot() -> str:
    return lobby_rows_fragment(lobby_rows())
