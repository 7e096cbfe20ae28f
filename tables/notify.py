"""Push a table's new screens to its open sockets (after commit).

The screens are rendered once here, by the process that made the change,
and go out in two kinds of message: the public fragments to the table's
group (every socket), and each seated player's own fragments to that
player's group only, so a hole card never travels to another player's socket
consumer.
"""

from __future__ import annotations

import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from accounts.socket_sessions import user_group
from tables.models import ChatMessage
from tables.presentation.chat import chat_append_fragment
from tables.presentation.fragments import lobby_row_fragment, lobby_rows_fragment
from tables.presentation.screens import screens
from tables.selectors.lobby import lobby_row, lobby_rows
from tables.selectors.table_state import load_table_state
from tables.services.changes import TableChange

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def player_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-player-{user_id}"


def on_table_change(change: TableChange) -> None:
    """Push a table's new screens to its sockets, and its lobby line (or the whole list, when
    a table opened or closed) to the lobby's: each rendered once, here, by the process that
    made the change. Subscribed to ``tables.services.changes`` by ``tables.apps``."""
    layer = get_channel_layer()
    if layer is None:
        return
    state = change.held() if change.held is not None else load_table_state(change.table_id)
    if state is not None:
        async_to_sync(_send_screens)(layer, change.table_id, screens(state, timezone.now()))
    if change.lobby_list:
        html = lobby_rows_fragment(lobby_rows())
        async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.rows", "html": html})
    elif change.lobby:
        row = lobby_row(change.table_id)
        if row is not None:
            html = lobby_row_fragment(row)
            async_to_sync(layer.group_send)(
                LOBBY_GROUP, {"type": "lobby.row", "table_id": change.table_id, "html": html}
            )


async def _send_screens(layer, table_id: int, rendered) -> None:
    version = rendered.version
    public = {
        "type": "table.changed",
        "version": version,
        "fragments": rendered.public,
        "players": list(rendered.players),
        "spectator_key": rendered.spectator_key,
    }
    sends = [layer.group_send(table_group(table_id), public)]
    for user_id, own in rendered.players.items():
        message = {"type": "player.changed", "version": version, "fragments": {**rendered.public, **own}}
        sends.append(layer.group_send(player_group(table_id, user_id), message))
    await asyncio.gather(*sends)  # side by side: one round of trips to Redis, not one after another


def on_chat_message(message: ChatMessage) -> None:
    """A chat line, rendered once, to every socket of its table (each drops its muted authors').
    Subscribed to ``tables.services.chat`` by ``tables.apps``."""
    layer = get_channel_layer()
    if layer is None:
        return
    event = {"type": "chat.message", "html": chat_append_fragment(message), "author_id": message.author_id}
    async_to_sync(layer.group_send)(table_group(message.table_id), event)


def on_mutes_changed(owner_id: int) -> None:
    """Every socket of the player shows the chat again without the players they muted."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(user_group(owner_id), {"type": "chat.mutes"})
