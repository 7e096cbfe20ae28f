"""How a server process's messages to a table's sockets go out: in the order of the table's
changes, without the thread that made a change waiting for them (``send_in_order``), and straight
to this process's sockets where only they listen (``_hand_over``), else pipelined to Redis.
What the messages say: ``notify``.
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels_redis.pubsub import RedisPubSubChannelLayer

from config import channel_serializer
from config.outages import OUTAGES, describe
from operations import metrics
from tables.realtime import inboxes, listeners

logger = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def player_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-player-{user_id}"


async def send_all(layer, table_id: int, messages) -> None:
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


def send_in_order(layer, table_id: int, messages: list[tuple[str, dict]], started: float, what: str) -> None:
    """``what``: the messages' kind, for the metrics and the log (screens, or a chat line)."""
    loop = asyncio.get_running_loop()
    previous = _publishing.get(table_id)
    if previous is not None and previous.get_loop() is not loop:  # a loop that ended (tests run several)
        previous = None
    if previous is None and _handed_over_now(layer, table_id, messages):
        _observe_published(what, started)
        return
    task = loop.create_task(_send_after(previous, layer, table_id, messages, started, what))
    _publishing[table_id] = task

    def done(finished: asyncio.Task) -> None:
        if _publishing.get(table_id) is finished:
            del _publishing[table_id]
        if not finished.cancelled() and finished.exception() is not None:
            logger.error("table %s: publishing its %s failed", table_id, what, exc_info=finished.exception(),
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


async def _send_after(previous: asyncio.Task | None, layer, table_id: int, messages, started: float, what: str) -> None:
    if previous is not None:
        await asyncio.wait([previous])  # its own failure was logged by itself
    try:
        await send_all(layer, table_id, messages)
        _observe_published(what, started)
    except OUTAGES as error:
        metrics.PUBLISH_FAILURES.labels(what).inc()
        if what == "screens":
            logger.warning("table %s v%s: screens not published (%s)", table_id, messages[0][1]["version"],
                           describe(error), extra={"table_id": table_id})  # fmt: skip
        else:
            logger.warning("table %s: %s line not published (%s)", table_id, what, describe(error),
                           extra={"table_id": table_id})  # fmt: skip


def _observe_published(what: str, started: float) -> None:
    if what == "screens":
        metrics.PUBLISH_SECONDS.observe(time.perf_counter() - started)
