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

from channels.db import database_sync_to_async
from django.utils import timezone

from accounts.request_ids import RequestIdExpired, RequestIdRefused, new_request_id, request_nonce
from accounts.socket_sessions import SESSION_ENDED_CLOSE_CODE, session_is_current
from cashier.errors import RequestAlreadyUsed
from tables import services
from tables.models import Table
from tables.notify import LOBBY_GROUP, player_group, table_group
from tables.services import presence

from . import sockets
from .forms import PLAY_ACTIONS, FrameError, parse_frame, seat_forms_purpose
from .presentation.fragments import PATCHES, REQUEST_ID_SLOT, error_fragment, lobby_rows_fragment
from .presentation.screens import screen_for
from .selectors.lobby import lobby_rows
from .selectors.table_state import load_table_state
from .socket_guard import GuardedConsumer

# Commands that move chips: they carry the seat forms' one-time request id.
KEYED_COMMANDS = ("sit", "top_up")


class SessionEnded(Exception):
    """The socket's session was logged out, changed or deactivated since it connected."""


class LobbyConsumer(GuardedConsumer):
    """The lobby's live list: rows are rendered once per change by whoever made it (``notify``);
    a socket only sends its snapshot and forwards them."""

    async def connect(self):
        if not await self.admit():
            return
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.send_html(await database_sync_to_async(_lobby_snapshot)())

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        await self.release()

    async def receive(self, text_data=None, bytes_data=None):
        if not self.frame_allowed():
            await self.refuse("Too many messages: this connection is closed. Reload the page.")

    async def lobby_row(self, event):
        await self.send_html(event["html"])

    async def lobby_rows(self, event):
        await self.send_html(event["html"])


def _lobby_snapshot() -> str:
    return lobby_rows_fragment(lobby_rows())


class TableConsumer(GuardedConsumer):
    async def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.user = self.scope["user"]
        self.request_id = ""  # the seat forms' one-time request id (a logged-in viewer's); renewed once used
        self.sent: dict[str, str] = {}
        self.sent_version = -1
        self.spectator_key = None  # None while seated: a player's own fragments come rendered
        self.showing_error = False
        self.presence = ()
        if not await database_sync_to_async(Table.objects.filter(pk=self.table_id, is_active=True).exists)():
            await self.close()
            return
        if self.user.is_authenticated:
            self.presence = (sockets.seat_presence_key(self.table_id, self.user.pk),)
            self.request_id = new_request_id(self.user.pk, seat_forms_purpose(self.table_id))
        if not await self.admit(self.presence):
            return
        self.groups_joined = [table_group(self.table_id)]
        if self.user.is_authenticated:
            self.groups_joined.append(player_group(self.table_id, self.user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        if self.presence:
            await database_sync_to_async(presence.player_connected)(table_id=self.table_id, user=self.user)
        await self.send_snapshot()  # a reconnect or a second tab catches up here

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)
        was_counted = bool(self.counted)
        await self.release()
        # Presence is per seat: the player is gone only when their last socket here closes (RULES 6.3).
        if was_counted and self.presence and not sockets.counts.totals(self.presence)[self.presence[0]]:
            await database_sync_to_async(presence.player_disconnected)(table_id=self.table_id, user=self.user)

    async def receive(self, text_data=None, bytes_data=None):
        if not self.frame_allowed():
            await self.refuse("Too many messages: this connection is closed. Reload the page.")
            return
        try:
            command, data = parse_frame(text_data)
            if not self.user.is_authenticated:
                raise FrameError("Log in to play.")
            if command in KEYED_COMMANDS:
                data["request_id"] = request_nonce(
                    data["request_id"], user_id=self.user.pk, purpose=seat_forms_purpose(self.table_id)
                )
            # The change's screens are queued for this socket before this returns.
            await database_sync_to_async(self.perform)(command, data)
        except (RequestIdExpired, RequestAlreadyUsed, services.RepeatedRequest) as refusal:
            self.showing_error = True
            await self.send_html(error_fragment(str(refusal)))
            await self.renew_request_id()  # used or expired: the form's next try goes through
            return
        except SessionEnded:
            await self.refuse("Your session has ended.", code=SESSION_ENDED_CLOSE_CODE)
            return
        except (FrameError, RequestIdRefused, *services.REFUSALS) as refusal:
            self.showing_error = True
            await self.send_html(error_fragment(str(refusal)))
            return
        if command in KEYED_COMMANDS:
            await self.renew_request_id()
        if self.showing_error:
            self.showing_error = False
            await self.send_html(error_fragment())

    def perform(self, command: str, data: dict) -> None:
        """Call the one service the command names (in a worker thread: it writes the database)."""
        user, table_id = self.user, self.table_id
        if not session_is_current(getattr(self.scope.get("session"), "session_key", None), user.pk):
            raise SessionEnded
        if command in PLAY_ACTIONS:
            services.act(table_id=table_id, user=user, kind=command, amount=data["amount"], sequence=data["sequence"])
        elif command == "sit":
            services.take_seat(
                user=user,
                table_id=table_id,
                seat_number=data["seat_number"],
                buy_in=data["buy_in"],
                post_big_blind_now=data["big_blind"] == "now",
                request_id=data["request_id"],
            )
        elif command == "top_up":
            services.top_up(user=user, table_id=table_id, amount=data["amount"], request_id=data["request_id"])
        elif command == "sit_in":
            services.sit_in(user=user, table_id=table_id, post_big_blind_now=data["big_blind"] == "now")
        elif command == "sit_out":
            services.sit_out(user=user, table_id=table_id)
        elif command == "leave":
            services.leave(user=user, table_id=table_id)
        elif command == "contribute":
            services.contribute(
                user=user, table_id=table_id, seed_commitment=data["seed_commitment"], value=data["value"]
            )

    async def renew_request_id(self) -> None:
        """The seat forms' request id was used: the forms on the page get a fresh one, so a
        second click or a replay of the same form is refused."""
        self.request_id = new_request_id(self.user.pk, seat_forms_purpose(self.table_id))
        if "seat-panel" in self.sent:
            await self.send_html(self.sent["seat-panel"].replace(REQUEST_ID_SLOT, self.request_id))

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
