"""The pub/sub layer joins a group this process already listens to without waiting for Redis
(``config.pubsub_layer``), and never leaves a socket in a group whose subscription is gone."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from config.pubsub_layer import PubSubChannelLayer


@pytest.fixture
def layer(needs_redis):
    layer = get_channel_layer()
    assert isinstance(layer, PubSubChannelLayer)
    yield layer
    async_to_sync(layer.flush)()


def test_joining_a_group_a_socket_here_listens_to_does_not_wait_for_redis(layer):
    async def scenario():
        first, second = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table-1", first)
        shard = layer._get_layer()._get_shard(layer._get_group_channel_name("table-1"))
        async with shard._lock:  # a publish's round trip in progress
            await asyncio.wait_for(layer.group_add("table-1", second), 1)  # not behind it
        await layer.group_send("table-1", {"type": "x.y", "n": 1})
        assert await asyncio.wait_for(layer.receive(second), 2) == {"type": "x.y", "n": 1}
        assert await asyncio.wait_for(layer.receive(first), 2) == {"type": "x.y", "n": 1}

    async_to_sync(scenario)()


def test_a_join_while_the_groups_last_socket_leaves_waits_and_ends_subscribed(layer):
    """The last socket's leave unsubscribes (under the shard's lock); a join that comes while it
    waits for the lock goes behind it, the stock way, and subscribes again."""

    async def scenario():
        leaving, joining, another = [await layer.new_channel() for _ in range(3)]
        await layer.group_add("table-2", leaving)
        group_channel = layer._get_group_channel_name("table-2")
        shard = layer._get_layer()._get_shard(group_channel)
        async with shard._lock:
            leave = asyncio.ensure_future(layer.group_discard("table-2", leaving))
            await asyncio.sleep(0.05)  # the leave waits for the lock, the group emptied
            join = asyncio.ensure_future(layer.group_add("table-2", joining))
            await asyncio.sleep(0.05)
            assert not join.done()  # behind the unsubscribe, not past it
            also = asyncio.ensure_future(layer.group_add("table-2", another))
            await asyncio.sleep(0.05)
            assert not also.done()
        await asyncio.wait_for(asyncio.gather(leave, join, also), 2)
        assert group_channel in shard._subscribed_to
        await layer.group_send("table-2", {"type": "x.y", "n": 2})
        for channel in (joining, another):
            assert await asyncio.wait_for(layer.receive(channel), 2) == {"type": "x.y", "n": 2}

    async_to_sync(scenario)()
