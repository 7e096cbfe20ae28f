"""Sends from outside any event loop (the celery worker's) go out from one loop the process
keeps, whose Redis connection lasts (``config.layer_sends``), not from a loop and a connection
made for each send; what they raise reaches the caller."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer

from config import layer_sends


@pytest.fixture
def layer(pubsub_layer):
    return pubsub_layer


async def _where() -> tuple[asyncio.AbstractEventLoop, str]:
    return asyncio.get_running_loop(), threading.current_thread().name


def test_sends_from_outside_a_loop_share_one_loop_and_one_connection(layer):
    first = layer_sends.send(layer, _where)
    second = layer_sends.send(layer, _where)
    assert first == second and first[1] == "channel-layer-sends"
    channel = layer_sends.send(layer, layer.new_channel)
    layer_sends.send(layer, layer.group_add, "table-7", channel)
    pools = set()

    async def sent_and_pool(n):
        await layer.group_send("table-7", {"type": "x.y", "n": n})
        pools.add(id(layer._get_layer()._get_shard(layer._get_group_channel_name("table-7"))._redis))

    for n in range(3):
        layer_sends.send(layer, sent_and_pool, n)
        received = layer_sends.send(layer, lambda: asyncio.wait_for(layer.receive(channel), 2))
        assert received == {"type": "x.y", "n": n}
    assert len(pools) == 1  # one connection pool over every send


def test_what_a_send_raises_reaches_the_caller(layer):
    async def fails():
        raise ConnectionError("redis away")

    with pytest.raises(ConnectionError, match="redis away"):
        layer_sends.send(layer, fails)
    assert layer_sends.send(layer, _where)[1] == "channel-layer-sends"  # and the loop goes on


def test_the_in_memory_layer_keeps_a_loop_per_send():
    memory = InMemoryChannelLayer()
    first, second = layer_sends.send(memory, _where), layer_sends.send(memory, _where)
    assert first[0] is not second[0]  # asgiref's, as before


def test_under_a_server_loop_the_send_runs_on_it(layer):
    from asgiref.sync import sync_to_async

    async def server():
        here = asyncio.get_running_loop()
        sent_on = await sync_to_async(lambda: layer_sends.send(layer, _where))()
        return here, sent_on[0]

    here, sent_on = async_to_sync(server)()
    assert sent_on is here
