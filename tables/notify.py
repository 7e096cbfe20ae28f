"""Push a table's new screens to its open sockets (after commit).

The screens are rendered once here, by the process that made the change,
and go out in two kinds of message: the public fragments to the table's
group (every socket), and each seated player's own fragments to that
player's group only, so a hole card never travels to another player's socket
consumer. Each audience gets its fragments once, and only those that changed
since this process last sent to it, with every fragment's digest so a socket
rebuilds the whole screen (``presentation.deltas``). The public message carries
them for every language of the room (each socket takes its viewer's), a player's
own message their fragments in their language.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone, translation

from accounts.socket_sessions import user_group
from tables.models import ChatMessage
from tables.outages import OUTAGES, describe
from tables.presentation.chat import chat_append_fragment
from tables.presentation.deltas import SentDigests
from tables.presentation.fragments import lobby_row_fragment, lobby_rows_fragment
from tables.presentation.screens import room_languages, screens
from tables.selectors.lobby import lobby_row, lobby_rows
from tables.selectors.table_state import load_table_state
from tables.services.changes import TableChange

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
_sent = SentDigests()


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def player_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-player-{user_id}"


def on_table_change(change: TableChange) -> None:
    """Push a table's new screens to its sockets, and its lobby line (or the whole list, when
    a table opened or closed) to the lobby's: each rendered once, here, by the process that
    made the change. Subscribed to ``tables.services.changes`` by ``tables.apps``.

    The change is committed whatever happens here: with the channel layer (or the database,
    read again for the screens) away they are not published, and the sockets catch up by version when it is back
    (``tables.socket_recovery``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        _publish(layer, change)
    except OUTAGES as error:
        logger.warning("table %s v%s: screens not published (%s)", change.table_id, change.version, describe(error))


def _publish(layer, change: TableChange) -> None:
    state = change.held() if change.held is not None else load_table_state(change.table_id)
    if state is not None:
        async_to_sync(_send_screens)(layer, change.table_id, screens(state, timezone.now()))
    if change.lobby_list:
        rows = lobby_rows()
        html = in_every_language(lambda: lobby_rows_fragment(rows))
        async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.rows", "html": html})
    elif change.lobby:
        row = lobby_row(change.table_id)
        if row is not None:
            html = in_every_language(lambda: lobby_row_fragment(row))
            async_to_sync(layer.group_send)(
                LOBBY_GROUP, {"type": "lobby.row", "table_id": change.table_id, "html": html}
            )


def in_every_language(render) -> dict[str, str]:
    """Language -> what ``render()`` returns with that language active."""
    rendered = {}
    for language in room_languages():
        with translation.override(language):
            rendered[language] = str(render())
    return rendered


async def _send_screens(layer, table_id: int, rendered) -> None:
    version = rendered.version
    group = table_group(table_id)
    fragments, digests = {}, {}
    for language, public in rendered.public.items():
        fragments[language], digests[language] = _sent.delta(f"{group}|{language}", public)
    public_message = {
        "type": "table.changed",
        "version": version,
        "fragments": fragments,
        "digests": digests,
        "players": list(rendered.players),
        "spectator_key": rendered.spectator_key,
    }
    sends = [layer.group_send(group, public_message)]
    for user_id, own in rendered.players.items():
        group = player_group(table_id, user_id)
        fragments, digests = _sent.delta(group, own)
        message = {"type": "player.changed", "version": version, "language": rendered.languages[user_id],
                   "fragments": fragments, "digests": digests}  # fmt: skip
        sends.append(layer.group_send(group, message))
    # Side by side: one round of trips to Redis, not one after another. Every send is awaited
    # to its end even when one fails (Redis away), so none is left failing unobserved.
    results = await asyncio.gather(*sends, return_exceptions=True)
    failed = next((result for result in results if isinstance(result, BaseException)), None)
    if failed is not None:
        raise failed


def on_chat_message(message: ChatMessage) -> None:
    """A chat line, rendered once, to every socket of its table (each drops its muted authors').
    Subscribed to ``tables.services.chat`` by ``tables.apps``. With the channel layer away the
    line is stored but not pushed: a socket shows it with the recent ones when it reconnects."""
    layer = get_channel_layer()
    if layer is None:
        return
    html = in_every_language(lambda: chat_append_fragment(message))  # a dealer line is worded per reader
    event = {"type": "chat.message", "html": html, "author_id": message.author_id}
    try:
        async_to_sync(layer.group_send)(table_group(message.table_id), event)
    except OUTAGES as error:
        logger.warning("table %s: chat line not published (%s)", message.table_id, describe(error))


def on_mutes_changed(owner_id: int) -> None:
    """Every socket of the player shows the chat again without the players they muted."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(user_group(owner_id), {"type": "chat.mutes"})
    except OUTAGES as error:
        logger.warning("player %s: mutes not published (%s)", owner_id, describe(error))
