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

import asyncio
import logging
import time
from typing import Literal, TypedDict

from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.utils import timezone, translation

from accounts.socket_sessions import user_group
from config import channel_serializer, layer_sends
from config.outages import OUTAGES, describe
from operations import metrics
from tables.models import ChatMessage
from tables.presentation.chat import chat_append_fragment
from tables.presentation.deltas import SentDigests
from tables.presentation.fragments import lobby_row_fragment, lobby_rows_fragment
from tables.presentation.screens import Screens, room_languages, screens
from tables.presentation.view_models import RenderedFragments
from tables.realtime import admission, inboxes, listeners
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
            layer_sends.send(layer, _send_all, layer, change.table_id, messages)
            metrics.PUBLISH_SECONDS.observe(time.perf_counter() - started)
        else:
            loop.call_soon_threadsafe(_send_in_order, layer, change.table_id, messages, started)
    if change.lobby_list:
        rows = lobby_rows()
        html = in_every_language(lambda: lobby_rows_fragment(rows))
        layer_sends.send(layer, layer.group_send, LOBBY_GROUP, {"type": "lobby.rows", "html": html})
    elif change.lobby:
        row = lobby_row(change.table_id)
        if row is not None:
            html = in_every_language(lambda: lobby_row_fragment(row))
            event = {"type": "lobby.row", "table_id": change.table_id, "html": html}
            layer_sends.send(layer, layer.group_send, LOBBY_GROUP, event)


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
    """Both halves of a change, to a seated player's socket of this process (``_hand_over``)."""

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


async def _send_all(layer, table_id: int, messages) -> None:
    if isinstance(layer, RedisPubSubChannelLayer):
        await _publish_pipelined(layer, table_id, messages)
        return
    # Side by side: one round of trips to Redis, not one after another. Every send is awaited
    # to its end even when one fails (Redis away), so none is left failing unobserved.
    results = await asyncio.gather(*(layer.group_send(group, message) for group, message in messages),
                                   return_exceptions=True)  # fmt: skip
    failed = next((result for result in results if isinstance(result, BaseException)), None)
    if failed is not None:
        raise failed


async def _publish_pipelined(layer: RedisPubSubChannelLayer, table_id: int, messages) -> None:
    """A change's messages in one round trip to Redis: its publishes pipelined, in order, as
    channels-redis's ``group_send`` publishes each (to the group's channel, under the shard's
    lock). channels-redis 4.3 has no batch send; this reads its shard internals (pinned).

    A group that only this process's sockets listen to (a table's sockets are all in the
    process its proxy hashes it to) is not published: its message is handed to them here, as
    channels-redis hands one read from Redis, without being packed, sent, read back and
    unpacked. Who listens elsewhere is asked of Redis (one trip for the change's groups) and
    kept until a socket of the table opens somewhere as a new listener (``listeners``):
    a socket of another process that joins reads its snapshot after joining, so it sees the
    changes made before its notice arrives here."""
    loop_layer = layer._get_layer()
    by_shard: dict = {}
    for group, message in messages:
        channel = loop_layer._get_group_channel_name(group)
        by_shard.setdefault(loop_layer._get_shard(channel), []).append((channel, message))
    here_too = channel_serializer.hands_over(layer._serializer)
    kept_here = _subscribed_here(loop_layer, table_id)
    handed: list[tuple[str, dict]] = []
    for shard, sends in by_shard.items():
        async with shard._lock:
            shard._ensure_redis()
            elsewhere = (
                await listeners.listened_elsewhere(shard, table_id, [channel for channel, _ in sends], kept_here)
                if here_too
                else None
            )
            pipe = shard._redis.pipeline(transaction=False)
            for index, (channel, message) in enumerate(sends):
                if elsewhere is None or elsewhere[index]:
                    pipe.publish(channel, layer.serialize(message))
                else:
                    handed.append((channel, message))
            if len(pipe):
                await pipe.execute()
    if handed:
        _hand_over(loop_layer, handed)


def _subscribed_here(loop_layer, table_id: int) -> bool:
    """Whether this process subscribes to the table's group (a socket of the table is here): where
    a new listener's notice reaches, so what ``listeners`` keeps for the table can be trusted."""
    table_channel = loop_layer._get_group_channel_name(table_group(table_id))
    return table_channel in loop_layer._get_shard(table_channel)._subscribed_to


def _hand_over(loop_layer, handed: list[tuple[str, dict]]) -> None:
    """A change's messages to this process's sockets in their groups, handed straight to them
    (``inboxes``: a socket with nothing in hand applies it at once, ``screen_updates``; another
    receiver's as channels-redis hands it a message it read). A seated player's socket is in the
    table's group and in its player's: when both halves of the change are handed over here it
    gets them in one message (``screen.changed``), one frame instead of two."""
    table = next((message for _, message in handed if message["type"] == "table.changed"), None)
    table_members = set()
    if table is not None:
        table_channel = next(channel for channel, message in handed if message is table)
        table_members = loop_layer.groups.get(table_channel, set())
    both = {
        name: {"type": "screen.changed", "table": table, "player": message}
        for channel, message in handed
        if message["type"] == "player.changed"
        for name in loop_layer.groups.get(channel, ())
        if name in table_members
    }
    for channel, message in handed:
        for name in loop_layer.groups.get(channel, ()):
            if name in both and message["type"] != "player.changed":
                continue  # its table's half goes with its own
            sent = both.get(name, message)
            receiver = inboxes.here.get(name)  # a socket's: handed straight to it
            if receiver is not None:
                receiver.deliver(sent)
                continue
            queue = loop_layer.channels.get(name)  # another receiver's: as the layer brings it
            if queue is not None:
                queue.put_nowait(channel_serializer.unpacked(sent))


# On the server's loop: each table's last publishing task. The worker thread that made a change
# hands its messages to the loop and goes on to the next job (another table's action, a
# connect) instead of waiting for Redis; a table's messages still go out in the order of its
# changes, each after the one before.
_publishing: dict[int, asyncio.Task] = {}


def _send_in_order(layer, table_id: int, messages: list[tuple[str, dict]], started: float) -> None:
    loop = asyncio.get_running_loop()
    previous = _publishing.get(table_id)
    if previous is not None and previous.get_loop() is not loop:  # a loop that ended (tests run several)
        previous = None
    if previous is None and _handed_over_now(layer, table_id, messages):
        metrics.PUBLISH_SECONDS.observe(time.perf_counter() - started)
        return
    task = loop.create_task(_send_after(previous, layer, table_id, messages, started))
    _publishing[table_id] = task

    def done(finished: asyncio.Task) -> None:
        if _publishing.get(table_id) is finished:
            del _publishing[table_id]
        if not finished.cancelled() and finished.exception() is not None:
            logger.error("table %s: publishing its screens failed", table_id, exc_info=finished.exception(),
                         extra={"table_id": table_id})  # fmt: skip

    task.add_done_callback(done)


def _handed_over_now(layer, table_id: int, messages: list[tuple[str, dict]]) -> bool:
    """Hand a change over to this process's sockets at once, without a task or a trip to Redis,
    when every one of its groups is known to be listened to here only (``listeners``'
    kept answers); returns whether it did. The caller makes sure no earlier change of the table
    is still on its way."""
    if not isinstance(layer, RedisPubSubChannelLayer) or not channel_serializer.hands_over(layer._serializer):
        return False
    loop_layer = layer._get_layer()
    if not _subscribed_here(loop_layer, table_id):
        return False
    handed = [(loop_layer._get_group_channel_name(group), message) for group, message in messages]
    if not listeners.only_here(table_id, [channel for channel, _ in handed]):
        return False
    _hand_over(loop_layer, handed)
    return True


async def _send_after(previous: asyncio.Task | None, layer, table_id: int, messages, started: float) -> None:
    if previous is not None:
        await asyncio.wait([previous])  # its own failure was logged by itself
    try:
        await _send_all(layer, table_id, messages)
        metrics.PUBLISH_SECONDS.observe(time.perf_counter() - started)
    except OUTAGES as error:
        metrics.PUBLISH_FAILURES.labels("screens").inc()
        logger.warning("table %s v%s: screens not published (%s)", table_id, messages[0][1]["version"], describe(error),
                       extra={"table_id": table_id})  # fmt: skip


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
