"""The tournament lobby's socket, and the tournament page's (which only listens for its
player's alerts). Both obey what every socket of the room obeys (``GuardedConsumer``: caps,
rate limits, the session, the viewer's language), and both, as every socket of a logged-in
player, take the player's alerts (``GuardedConsumer.user_alert``)."""

from __future__ import annotations

from tables.realtime.socket_guard import GuardedConsumer, ListSocket, in_language

from .marks import Marks, marks_of, take_marks, with_marks
from .push import LOBBY_GROUP, rows_fragment


class TournamentLobbyConsumer(ListSocket):
    """The list is rendered once per change by whoever made it (``push``); a socket sends its
    snapshot, then forwards each change with its viewer's marks filled in."""

    page = "tournaments"
    group = LOBBY_GROUP

    async def connect(self):
        self.marks: Marks = {}
        await super().connect()

    def snapshot(self) -> str:
        self.marks = marks_of(self.scope["user"])
        return with_marks(rows_fragment(), self.marks)

    async def tournaments_rows(self, event):
        user = self.scope["user"]
        take_marks(self.marks, user.pk if user.is_authenticated else None, event)
        await self.send_html(with_marks(in_language(event["html"], self.language), self.marks))


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
