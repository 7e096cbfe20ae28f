"""channels-redis's pub/sub channel layer, joining a group this process already listens to
without waiting for Redis.

The stock layer takes its shard's lock for every ``group_add``, even when the process already
subscribes to the group's channel (another socket of the same table joined it), and that
lock is also held across every publish's round trip: when a process's sockets come back all
at once (a restart), hundreds of joins queue behind each other and behind the publishes. A
join of a group that a socket of this process joined, and whose subscription is in place, only
adds the socket to it. The group is "in place" from the end of the join that subscribed it
until a leave empties it (whose unsubscribe then runs under the lock, and a join after it goes
the stock way, behind it).
"""

from __future__ import annotations

import asyncio

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from channels_redis.utils import _wrap_close


class JoiningLoopLayer(RedisPubSubLoopLayer):
    """The layer of one event loop (the stock proxy makes one per loop)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._in_place: set[str] = set()  # group channels subscribed and joined by a socket here

    async def group_add(self, group, channel):
        group_channel = self._get_group_channel_name(group)
        members = self.groups.get(group_channel)
        if members and group_channel in self._in_place and channel in self.channels:
            members.add(channel)
            return
        await super().group_add(group, channel)
        if self.groups.get(group_channel):
            self._in_place.add(group_channel)

    async def group_discard(self, group, channel):
        group_channel = self._get_group_channel_name(group)
        members = self.groups.get(group_channel)
        if members is not None and members <= {channel}:
            self._in_place.discard(group_channel)  # before its unsubscribe: later joins wait behind it
        await super().group_discard(group, channel)

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
