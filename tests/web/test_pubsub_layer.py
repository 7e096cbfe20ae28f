"""The pub/sub layer joins a group this process already listens to without waiting for Redis
(``config.pubsub_layer``), and never leaves a socket in a group whose subscription is gone."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync


@pytest.fixture
def layer(pubsub_layer):
    return pubsub_layer


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


def test_new_groups_joined_while_the_shard_is_busy_are_subscribed_together(layer):
    """A restart's sockets join thousands of new groups at once: those joined while the shard's
    lock is held go in one ``SUBSCRIBE`` once it is free, and each join returns once it is sent."""

    async def scenario():
        channels = [await layer.new_channel() for _ in range(20)]
        loop_layer = layer._get_layer()
        shard = loop_layer._get_shard(layer._get_group_channel_name("seat-0"))
        assert all(loop_layer._get_shard(layer._get_group_channel_name(f"seat-{n}")) is shard for n in range(20))
        await layer.group_add("warm", channels[0])  # the shard's connection made
        sent: list[tuple[str, ...]] = []
        subscribe = shard._pubsub.subscribe

        async def counted(*names):
            sent.append(names)
            return await subscribe(*names)

        shard._pubsub.subscribe = counted
        try:
            async with shard._lock:
                joins = [
                    asyncio.ensure_future(layer.group_add(f"seat-{n}", channel)) for n, channel in enumerate(channels)
                ]
                await asyncio.sleep(0.05)
                assert not any(join.done() for join in joins)
            await asyncio.wait_for(asyncio.gather(*joins), 2)
        finally:
            shard._pubsub.subscribe = subscribe
        assert len(sent) == 1 and len(sent[0]) == 20
        await layer.group_send("seat-7", {"type": "x.y", "n": 7})
        assert await asyncio.wait_for(layer.receive(channels[7]), 2) == {"type": "x.y", "n": 7}

    async_to_sync(scenario)()


def test_a_group_left_before_its_batch_is_sent_is_not_subscribed(layer):
    async def scenario():
        channel = await layer.new_channel()
        group_channel = layer._get_group_channel_name("gone")
        shard = layer._get_layer()._get_shard(group_channel)
        async with shard._lock:
            join = asyncio.ensure_future(layer.group_add("gone", channel))
            await asyncio.sleep(0.02)
            leave = asyncio.ensure_future(layer.group_discard("gone", channel))
            await asyncio.sleep(0.02)
        await asyncio.wait_for(asyncio.gather(join, leave), 2)
        assert group_channel not in shard._subscribed_to

    async_to_sync(scenario)()
