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

from tables.presentation.screens import screens
from tables.presentation.table_state import TableState, load_table_state

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def player_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-player-{user_id}"


def table_changed(table_id: int, state: TableState | None = None, *, lobby: bool = True) -> None:
    """``state``: the table as the writer left it, if it holds it (else it is read here).
    ``lobby``: whether the lobby's line for the table may have changed."""
    layer = get_channel_layer()
    if layer is None:
        return
    state = state or load_table_state(table_id)
    if state is not None:
        async_to_sync(_send_screens)(layer, table_id, screens(state, timezone.now()))
    if lobby:
        async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.changed", "table_id": table_id})


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
