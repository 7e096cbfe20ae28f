"""A socket's way out when daphne cancels its application (past ``application_close_timeout``,
and again at each check until it ends): the socket still leaves its groups, its channel and
its counts, and channels-redis logs no traceback.

Over the real pub/sub layer on Redis. The layer's connection lock is held by the test, as a
few hundred sockets leaving at once hold it in a reconnect storm, so the cancellation lands
while the socket waits to unsubscribe."""

from __future__ import annotations

import asyncio
import logging

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.realtime import sockets

from ..support.sockets import Viewer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("needs_redis")]


def lobby_viewer() -> Viewer:
    return Viewer("/ws/lobby/")


def held_shard():
    layer = get_channel_layer()._get_layer()  # this loop's pub/sub layer
    return layer, layer._shards[0]


async def cancelled_as_daphne_does(viewer: Viewer) -> None:
    future = viewer.communicator.future
    for _ in range(3):  # once past the close timeout, then again at each check
        future.cancel()
        await asyncio.sleep(0.05)


async def left_everything(layer) -> None:
    """Its channel and its groups are gone from the layer (and unsubscribed: the layer's own
    cleanup ran to its end)."""
    async with asyncio.timeout(3):
        while layer.channels or layer.groups or any(shard._subscribed_to for shard in layer._shards):
            await asyncio.sleep(0.02)


def no_tracebacks(caplog) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_a_socket_cancelled_while_it_leaves_still_leaves_quietly(caplog):
    caplog.set_level(logging.WARNING)
    address = None

    async def scenario():
        nonlocal address
        viewer = await lobby_viewer().connect()
        address = viewer.communicator.scope["client"][0]
        layer, shard = held_shard()
        assert layer.channels and layer.groups
        await shard._lock.acquire()  # the connection busy with others' unsubscribing
        await viewer.communicator.send_input({"type": "websocket.disconnect", "code": 1006})
        await asyncio.sleep(0.05)
        await cancelled_as_daphne_does(viewer)
        shard._lock.release()
        await left_everything(layer)
        assert viewer.communicator.future.done()

    async_to_sync(scenario)()
    assert sockets.counts.here([sockets.ip_key(address)])[sockets.ip_key(address)] == 0
    assert no_tracebacks(caplog) == []


def test_a_socket_cancelled_in_its_handshake_still_leaves_quietly(caplog):
    """The handshake timed out while the server was busy: daphne cancels the socket before
    it heard its client go. It leaves all the same (its counts with it), without a traceback."""
    caplog.set_level(logging.WARNING)
    address = None

    async def scenario():
        nonlocal address
        viewer = lobby_viewer()
        address = viewer.communicator.scope["client"][0]
        layer, shard = held_shard()
        assert viewer.communicator.future  # the application starts: it opens its channel
        await asyncio.sleep(0.2)
        assert layer.channels
        await shard._lock.acquire()  # the connection busy with others' unsubscribing
        await viewer.communicator.send_input({"type": "websocket.connect"})
        assert (await viewer.communicator.receive_output(3))["type"] == "websocket.accept"
        # Admitted and counted; now the socket waits on the busy connection to join the lobby.
        await asyncio.sleep(0.05)
        assert sockets.counts.here([sockets.ip_key(address)])[sockets.ip_key(address)] == 1
        await cancelled_as_daphne_does(viewer)
        shard._lock.release()
        await left_everything(layer)

    async_to_sync(scenario)()
    assert sockets.counts.here([sockets.ip_key(address)])[sockets.ip_key(address)] == 0
    assert no_tracebacks(caplog) == []


def test_a_message_the_layer_cannot_read_ends_the_socket_with_its_error(caplog):
    """What the channel layer brings waits in the socket's inbox with its frames: a message it
    cannot read (not an outage, which the socket waits out) ends the socket with that error, as
    an error of its own handling does, instead of leaving it deaf to its groups."""
    caplog.set_level(logging.WARNING)

    async def scenario():
        viewer = await lobby_viewer().connect()
        layer, _shard = held_shard()
        (channel,) = list(layer.channels)
        layer.channels[channel].put_nowait(b"\x07 not a message")  # bytes no serializer reads
        async with asyncio.timeout(3):
            while not viewer.communicator.future.done():
                await asyncio.sleep(0.02)
        assert isinstance(viewer.communicator.future.exception(), ValueError)  # msgpack's ExtraData

    async_to_sync(scenario)()
