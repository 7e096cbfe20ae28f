"""The tournament lobby's socket, and the tournament page's (which only listens for its
player's alerts). Both obey what every socket of the room obeys (``GuardedConsumer``: caps,
rate limits, the session, the viewer's language), and both, as every socket of a logged-in
player, take the player's alerts (``GuardedConsumer.user_alert``)."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext

from tables.realtime.snapshot_threads import on_snapshot_thread
from tables.realtime.socket_guard import GuardedConsumer

from .marks import Marks, marks_of, take_marks, with_marks
from .push import LOBBY_GROUP, rows_fragment


class TournamentLobbyConsumer(GuardedConsumer):
    """The list is rendered once per change by whoever made it (``push``); a socket sends its
    snapshot, then forwards each change with its viewer's marks filled in."""

    page = "tournaments"

    async def connect(self):
        self.marks: Marks = {}
        if await self.busy_refusal():
            return
        try:
            if not await self.admit():
                return
            await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
            await self.catch_up()
        finally:
            self.settled()

    async def disconnect(self, code):
        await self.release()
        await self.leave_groups([LOBBY_GROUP])

    def memberships(self) -> list[str]:
        return [*super().memberships(), LOBBY_GROUP]

    async def catch_up(self) -> None:
        await self.send_html(await on_snapshot_thread(self.snapshot)())

    def snapshot(self) -> str:
        self.marks = marks_of(self.scope["user"])
        return with_marks(rows_fragment(), self.marks)

    async def receive(self, text_data=None, bytes_data=None):
        if not self.frame_allowed():
            await self.refuse(gettext("Too many messages: this connection is closed. Reload the page."))

    async def tournaments_rows(self, event):
        user = self.scope["user"]
        take_marks(self.marks, user.pk if user.is_authenticated else None, event)
        rendered = event["html"].get(self.language) or event["html"][settings.LANGUAGE_CODE]
        await self.send_html(with_marks(rendered, self.marks))


class TournamentPageConsumer(GuardedConsumer):
    """A tournament's page: its player's alerts (the start, with their table)."""

    page = "tournaments"  # counted with the lobby's (the staff's room screen, the metrics)

    async def connect(self):
        if await self.busy_refusal():
            return
        try:
            await self.admit()
        finally:
            self.settled()

    async def disconnect(self, code):
        await self.release()

    async def receive(self, text_data=None, bytes_data=None):
        if not self.frame_allowed():
            await self.refuse(gettext("Too many messages: this connection is closed. Reload the page."))
