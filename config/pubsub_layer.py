"""channels-redis's pub/sub channel layer, joining groups without a trip to Redis each.

The stock layer takes its shard's lock for every ``group_add``, even when the process already
subscribes to the group's channel (another socket of the same table joined it), sends one
``SUBSCRIBE`` per new group, and holds the same lock across every publish's round trip: when
a process's sockets come back all at once (a restart: four groups each), thousands of joins
queue behind each other and behind the publishes. Here:

- a join of a group that a socket of this process joined, and whose subscription is in place,
  only adds the socket to it. The group is "in place" from the end of the join that subscribed
  it until a leave empties it;
- the new groups joined while the lock is busy are subscribed together, in one ``SUBSCRIBE``
  once it is free (each join still returns only once its group's subscription is sent);
- a join of a group whose last socket is leaving goes the stock way, behind that leave's
  unsubscribe.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close

from config.shared_awaits import shared_task


@dataclass
class _Batch:
    """New group channels to subscribe together, once the shard's lock is free."""

    channels: set[str] = field(default_factory=set)
    sent: asyncio.Task | None = None


class JoiningLoopLayer(RedisPubSubLoopLayer):
    """The layer of one event loop (the stock proxy makes one per loop)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._in_place: set[str] = set()  # group channels subscribed and joined by a socket here
        self._leaving: Counter[str] = Counter()  # group channels a leave is unsubscribing
        self._batches: dict[RedisSingleShardConnection, _Batch] = {}  # the batch still taking joins

    async def group_add(self, group, channel):
        group_channel = self._get_group_channel_name(group)
        members = self.groups.get(group_channel)
        if members and group_channel in self._in_place and channel in self.channels:
            members.add(channel)
            return
        if channel not in self.channels or group_channel in self._leaving:
            await super().group_add(group, channel)  # its error, or behind the leave's unsubscribe
        else:
            self.groups.setdefault(group_channel, set()).add(channel)
            await self._subscribe(self._get_shard(group_channel), group_channel)
        if self.groups.get(group_channel):
            self._in_place.add(group_channel)

    async def _subscribe(self, shard: RedisSingleShardConnection, group_channel: str) -> None:
        batch = self._batches.get(shard)
        if batch is None:
            batch = self._batches[shard] = _Batch()
            batch.sent = shared_task(self._send(shard, batch))
        batch.channels.add(group_channel)
        assert batch.sent is not None
        await asyncio.shield(batch.sent)  # a socket closed meanwhile does not take the others' with it

    async def _send(self, shard: RedisSingleShardConnection, batch: _Batch) -> None:
        async with shard._lock:
            if self._batches.get(shard) is batch:
                del self._batches[shard]  # from now on a join makes a batch of its own
            # A group every socket left meanwhile is not subscribed (its leave unsubscribed nothing).
            channels = [c for c in batch.channels if c not in shard._subscribed_to and self.groups.get(c)]
            if channels:
                shard._ensure_redis()
                shard._ensure_receiver()
                await shard._pubsub.subscribe(*channels)
                shard._subscribed_to.update(channels)

    async def group_discard(self, group, channel):
        group_channel = self._get_group_channel_name(group)
        members = self.groups.get(group_channel)
        if members is None or members - {channel}:
            await super().group_discard(group, channel)
            return
        self._in_place.discard(group_channel)  # before its unsubscribe: a join after it waits behind it
        self._leaving[group_channel] += 1
        try:
            await super().group_discard(group, channel)
        finally:
            self._leaving[group_channel] -= 1
            if not self._leaving[group_channel]:
                del self._leaving[group_channel]

    async def flush(self):
        self._in_place.clear()
        await super().flush()


class PubSubChannelLayer(RedisPubSubChannelLayer):
    def _get_layer(self):
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = JoiningLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer
