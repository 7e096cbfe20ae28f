"""The lobby and table websockets.

A table's screens are rendered once per change by the process that made it
(``notify``): every socket of the table gets the public fragments from the
table's group, and a seated player's sockets get their own fragments (hole
cards, controls) from that player's group, so private parts exist only in
the frames sent to sockets whose user may see them. A socket renders for
itself only its snapshot on connect, and the seat forms of a viewer without
a seat when what they offer changes. Only the fragments that changed since
the last send go down, so a half-typed amount survives unrelated updates.
"""

from __future__ import annotations

import uuid

from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from tables import services
from tables.models import Table
from tables.notify import LOBBY_GROUP, player_group, table_group
from tables.services import presence

from .forms import PLAY_ACTIONS, FrameError, parse_frame
from .presentation.fragments import (
    PATCHES,
    REQUEST_ID_SLOT,
    error_fragment,
    lobby_row_fragment,
    lobby_rows_fragment,
)
from .presentation.lobby import lobby_row, lobby_rows
from .presentation.screens import screen_for
from .presentation.table_state import load_table_state

# Commands that move chips and so carry the seat forms' one-time request id.
KEYED_COMMANDS = ("sit", "top_up")


class FragmentConsumer(AsyncWebsocketConsumer):
    async def send_html(self, html: str) -> None:
        """Send fragments; a client that went away while they were rendered is no error
        (daphne raises on the closed socket; the disconnect handler runs next)."""
        try:
            await self.send(text_data=html)
        except Disconnected:
            pass


class LobbyConsumer(FragmentConsumer):
    async def connect(self):
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        rows = await database_sync_to_async(lobby_rows)()
        self.listed = {row.table.pk for row in rows}
        await self.send_html(lobby_rows_fragment(rows))

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def lobby_changed(self, event):
        table_id = event["table_id"]
        row = await database_sync_to_async(lobby_row)(table_id)
        if row is not None and table_id in self.listed:
            await self.send_html(lobby_row_fragment(row))
            return
        # A table opened or closed: the list itself changes.
        rows = await database_sync_to_async(lobby_rows)()
        self.listed = {row.table.pk for row in rows}
        await self.send_html(lobby_rows_fragment(rows))


class TableConsumer(FragmentConsumer):
    async def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.user = self.scope["user"]
        self.request_id = str(uuid.uuid4())  # the seat forms' one-time key; renewed once used
        self.sent: dict[str, str] = {}
        self.sent_version = -1
        self.spectator_key = None  # None while seated: a player's own fragments come rendered
        self.showing_error = False
        if not await database_sync_to_async(Table.objects.filter(pk=self.table_id, is_active=True).exists)():
            await self.close()
            return
        self.groups_joined = [table_group(self.table_id)]
        if self.user.is_authenticated:
            self.groups_joined.append(player_group(self.table_id, self.user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await database_sync_to_async(presence.player_connected)(table_id=self.table_id, user=self.user)
        await self.send_snapshot()  # a reconnect or a second tab catches up here

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)
        await database_sync_to_async(presence.player_disconnected)(table_id=self.table_id, user=self.user)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            command, data = parse_frame(text_data)
            if not self.user.is_authenticated:
                raise FrameError("Log in to play.")
            # The change's screens are queued for this socket before this returns.
            await database_sync_to_async(self.perform)(command, data)
        except (FrameError, *services.REFUSALS) as refusal:
            self.showing_error = True
            await self.send_html(error_fragment(str(refusal)))
            return
        if command in KEYED_COMMANDS:
            self.request_id = str(uuid.uuid4())  # used: the next seat forms get a fresh one
        if self.showing_error:
            self.showing_error = False
            await self.send_html(error_fragment())

    def perform(self, command: str, data: dict) -> None:
        """Call the one service the command names (in a worker thread: it writes the database)."""
        user, table_id = self.user, self.table_id
        if command in PLAY_ACTIONS:
            services.act(table_id=table_id, user=user, kind=command, amount=data["amount"], sequence=data["sequence"])
        elif command == "sit":
            services.take_seat(
                user=user,
                table_id=table_id,
                seat_number=data["seat_number"],
                buy_in=data["buy_in"],
                post_big_blind_now=data["big_blind"] == "now",
                idempotency_key=self.idempotency_key("buy-in", data),
            )
        elif command == "top_up":
            key = self.idempotency_key("top-up", data)
            services.top_up(user=user, table_id=table_id, amount=data["amount"], idempotency_key=key)
        elif command == "sit_in":
            services.sit_in(user=user, table_id=table_id, post_big_blind_now=data["big_blind"] == "now")
        elif command == "sit_out":
            services.sit_out(user=user, table_id=table_id)
        elif command == "leave":
            services.leave(user=user, table_id=table_id)

    def idempotency_key(self, purpose: str, data: dict) -> str:
        # A repeated frame (double click, a resend queued while offline) carries the same
        # request id, so the chips move once. The user id keeps players' keys apart.
        return f"{purpose}:{self.user.pk}:{data['request_id']}"

    async def table_changed(self, event):
        if event["version"] <= self.sent_version:
            return
        if self.user.is_authenticated and self.user.pk in event["players"]:
            self.spectator_key = None
            return  # this player's own message carries the public fragments too
        if event["spectator_key"] != self.spectator_key:
            await self.send_snapshot()  # the seat forms change: rendered for this viewer
            return
        await self.send_fragments(event["version"], event["fragments"])

    async def player_changed(self, event):
        if event["version"] > self.sent_version:
            self.spectator_key = None
            await self.send_fragments(event["version"], event["fragments"])

    async def send_snapshot(self):
        rendered = await database_sync_to_async(self.snapshot)()
        if rendered is None:  # the table is gone
            await self.close()
            return
        screens, own = rendered
        self.spectator_key = None if screens.players else screens.spectator_key
        await self.send_fragments(screens.version, {**screens.public, **own})

    def snapshot(self):
        state = load_table_state(self.table_id)
        return None if state is None else screen_for(state, self.user, timezone.now())

    async def send_fragments(self, version: int, fragments: dict[str, str]) -> None:
        if version < self.sent_version:
            return  # a snapshot read after this change already showed it
        changed = {key: html for key, html in fragments.items() if self.sent.get(key) != html}
        for public_key in [key for key in changed if key in PATCHES]:
            for patch in PATCHES[public_key]:  # the public fragment just wiped its viewer's patch
                if patch in fragments:
                    changed[patch] = fragments[patch]
        self.sent.update(fragments)
        self.sent_version = version
        if "seat-panel" in changed:
            changed["seat-panel"] = changed["seat-panel"].replace(REQUEST_ID_SLOT, self.request_id)
        if changed:
            await self.send_html("".join(changed.values()))
