"""The live room page's socket (staff only): the room again every few seconds while it is open."""

from __future__ import annotations

import asyncio
import contextlib

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import timezone

from tables.realtime.socket_guard import GuardedConsumer

from .room import room_now

REFRESH_SECONDS = 2.0


def room_fragment() -> str:
    return render_to_string("admin/operations/room_rows.html", {"room": room_now(timezone.now())})


class StaffRoomConsumer(GuardedConsumer):
    page = "staff"

    async def connect(self):
        user = self.scope["user"]
        if not (user.is_authenticated and user.is_staff and user.is_active):
            await self.close()
            return
        if not await self.admit():
            return
        self.refreshing = asyncio.ensure_future(self.refresh())

    async def refresh(self) -> None:
        while True:
            await self.send_html(await database_sync_to_async(room_fragment)())
            await asyncio.sleep(REFRESH_SECONDS)

    async def disconnect(self, code):
        refreshing = getattr(self, "refreshing", None)
        if refreshing is not None:
            refreshing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await refreshing
        await self.release()

    async def catch_up(self) -> None:
        """Nothing to catch up: the next refresh shows the room as it is."""

    async def receive(self, text_data=None, bytes_data=None):
        if not self.frame_allowed():
            await self.close()
