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

In a server process the worker thread renders the messages and hands them to the
event loop, which sends them in the order of the table's changes; the thread does
not wait for Redis. Elsewhere (the celery worker, the embedded clock) they are sent
before the change's caller goes on (the worker's from a loop it keeps: ``layer_sends``).
"""

from __future__ import annotations

import logging
import time
from typing import Literal, TypedDict

from channels.layers import get_channel_layer
from django.utils import timezone, translation

from accounts.socket_sessions import user_group
from config import layer_sends
from config.outages import OUTAGES, describe
from config.shared_awaits import detached
from operations import metrics
from tables.models import ChatMessage
from tables.presentation.chat import chat_append_fragment
from tables.presentation.deltas import SentDigests
from tables.presentation.fragments import lobby_row_fragment, lobby_rows_fragment
from tables.presentation.screens import Screens, room_languages, screens
from tables.presentation.view_models import RenderedFragments
from tables.realtime import admission, listeners, publishing
from tables.realtime.publishing import player_group, table_group
from tables.selectors.lobby import lobby_row, lobby_rows
from tables.selectors.table_state import load_table_state
from tables.services.changes import TableChange

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
_sent = SentDigests()
_rendered = RenderedFragments()


def rendered_fragments() -> RenderedFragments:
    """What this process rendered lately for each audience of each table: a socket's snapshot
    reuses it (``screens.screen_for``)."""
    return _rendered


def on_table_change(change: TableChange) -> None:
    """Push a table's new screens to its sockets, and its lobby line (or the whole list, when
    a table opened or closed) to the lobby's: each rendered once, here, by the process that
    made the change. Subscribed to ``tables.services.changes`` by ``tables.apps``.

    The change is committed whatever happens here: with the channel layer (or the database,
    read again for the screens) away they are not published, and the sockets catch up by version when it is back
    (``tables.realtime.socket_recovery``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        _publish(layer, change)
    except OUTAGES as error:
        metrics.PUBLISH_FAILURES.labels("screens").inc()
        logger.warning("table %s v%s: screens not published (%s)", change.table_id, change.version, describe(error),
                       extra={"table_id": change.table_id})  # fmt: skip


def _publish(layer, change: TableChange) -> None:
    started = time.perf_counter()
    state = change.held() if change.held is not None else load_table_state(change.table_id)
    if state is not None:
        rendered = screens(state, timezone.now(), _rendered, listeners.listening_languages(change.table_id))
        admission.remember_seated(change.table_id, rendered.players)  # for sockets admitted past the bound
        messages = _screen_messages(change.table_id, rendered)
        loop = layer_sends.server_loop()
        if loop is None:
            layer_sends.send(layer, publishing.send_all, layer, change.table_id, messages)
            metrics.PUBLISH_SECONDS.observe(time.perf_counter() - started)
        else:
            loop.call_soon_threadsafe(publishing.send_in_order, layer, change.table_id, messages, started, "screens")
    if change.lobby_list:
        rows = lobby_rows()
        html = in_every_language(lambda: lobby_rows_fragment(rows))
        _send_to_lobby(layer, {"type": "lobby.rows", "html": html})
    elif change.lobby:
        row = lobby_row(change.table_id)
        if row is not None:
            html = in_every_language(lambda: lobby_row_fragment(row))
            _send_to_lobby(layer, {"type": "lobby.row", "table_id": change.table_id, "html": html})


def _send_to_lobby(layer, event: dict) -> None:
    """A lobby line to the lobby's sockets. In a server process handed to its loop, which sends
    the lobby's messages in the order they came (each task takes the layer's fair lock for its
    publish, in the order they start): the thread that made the change (a table's action
    thread, other tables' actions waiting behind it) does not wait for the loop and Redis."""
    loop = layer_sends.server_loop()
    if loop is None:
        layer_sends.send(layer, layer.group_send, LOBBY_GROUP, event)
    else:
        loop.call_soon_threadsafe(lambda: detached(_lobby_send(layer, event), "lobby line"))


async def _lobby_send(layer, event: dict) -> None:
    try:
        await layer.group_send(LOBBY_GROUP, event)
    except OUTAGES:
        metrics.PUBLISH_FAILURES.labels("screens").inc()
        raise


def in_every_language(render) -> dict[str, str]:
    """Language -> what ``render()`` returns with that language active."""
    rendered = {}
    for language in room_languages():
        with translation.override(language):
            rendered[language] = str(render())
    return rendered


class TableChanged(TypedDict):
    """A change's public fragments, to every socket of the table (``consumers``)."""

    type: Literal["table.changed"]
    version: int
    fragments: dict[str, dict[str, str]]  # language -> the fragments that changed
    digests: dict[str, dict[str, str]]  # language -> every fragment's digest
    players: list[int]  # the seated players: their sockets wait for their own half too
    spectator_key: list  # what the seat forms of a viewer without a seat depend on


class PlayerChanged(TypedDict):
    """A change's fragments of one seated player, to that player's sockets only."""

    type: Literal["player.changed"]
    version: int
    language: str
    fragments: dict[str, str]
    digests: dict[str, str]


class ScreenChanged(TypedDict):
    """Both halves of a change, to a seated player's socket of this process (``publishing._hand_over``)."""

    type: Literal["screen.changed"]
    table: TableChanged
    player: PlayerChanged


ScreenMessage = TableChanged | PlayerChanged


def _screen_messages(table_id: int, rendered: Screens) -> list[tuple[str, ScreenMessage]]:
    """(group, message) for the table's group and each seated player's, in the order of the
    changes (each carries what changed since this process's previous message to that group)."""
    version = rendered.version
    group = table_group(table_id)
    fragments: dict[str, dict[str, str]] = {}
    digests: dict[str, dict[str, str]] = {}
    for language, public in rendered.public.items():
        fragments[language], digests[language] = _sent.delta(f"{group}|{language}", public)
    public_message: TableChanged = {
        "type": "table.changed",
        "version": version,
        "fragments": fragments,
        "digests": digests,
        "players": list(rendered.players),
        "spectator_key": rendered.spectator_key,
    }
    messages: list[tuple[str, ScreenMessage]] = [(group, public_message)]
    for user_id, own in rendered.players.items():
        group = player_group(table_id, user_id)
        own_fragments, own_digests = _sent.delta(group, own)
        message: PlayerChanged = {"type": "player.changed", "version": version,
                                  "language": rendered.languages[user_id],
                                  "fragments": own_fragments, "digests": own_digests}  # fmt: skip
        messages.append((group, message))
    return messages


def on_chat_message(message: ChatMessage) -> None:
    """A chat line, rendered once, to every socket of its table (each drops its muted authors').
    Subscribed to ``tables.services.chat`` by ``tables.apps``. With the channel layer away the
    line is stored but not pushed: a socket shows it with the recent ones when it reconnects."""
    layer = get_channel_layer()
    if layer is None:
        return
    html = in_every_language(lambda: chat_append_fragment(message))  # a dealer line is worded per reader
    event = {"type": "chat.message", "html": html, "author_id": message.author_id}
    metrics.CHAT_LINES.labels("dealer" if message.author_id is None else "player").inc()
    loop = layer_sends.server_loop()
    if loop is not None:
        # In a server process, as the table's screens go: handed to the loop, after the screens
        # of the change that said it (a pot won after the board that won it), and to this
        # process's sockets without Redis where only they listen. The thread that committed the
        # line (a table's action thread: other tables' actions wait behind it) goes on at once
        # instead of waiting for the loop and a trip to Redis.
        group = table_group(message.table_id)
        loop.call_soon_threadsafe(
            publishing.send_in_order, layer, message.table_id, [(group, event)], time.perf_counter(), "chat"
        )
        return
    try:
        layer_sends.send(layer, layer.group_send, table_group(message.table_id), event)
    except OUTAGES as error:
        metrics.PUBLISH_FAILURES.labels("chat").inc()
        logger.warning("table %s: chat line not published (%s)", message.table_id, describe(error),
                       extra={"table_id": message.table_id})  # fmt: skip


def on_mutes_changed(owner_id: int) -> None:
    """Every socket of the player shows the chat again without the players they muted."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        layer_sends.send(layer, layer.group_send, user_group(owner_id), {"type": "chat.mutes"})
    except OUTAGES as error:
        metrics.PUBLISH_FAILURES.labels("mutes").inc()
        logger.warning("player %s: mutes not published (%s)", owner_id, describe(error), extra={"player_id": owner_id})
