"""How a server process publishes a change's screens: the worker thread that made the change
hands them to the event loop and goes on (it does not wait for Redis), and a table's screens
still go out in the order of its changes."""

import asyncio

import pytest
from asgiref.sync import async_to_sync

from tables import services
from tables.realtime import notify
from tables.selectors.hands import rebuild

from ..support.sockets import db, felt_version, table_viewer
from ..support.tables import running_hand, table_version

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_slow_send_keeps_neither_the_writer_waiting_nor_the_next_change_ahead(heads_up, channel_layer, monkeypatch):
    table, alice, bob = heads_up
    services.start_hand_if_due(table_id=table.pk)
    first = table_version(table) + 1
    send_all = notify._send_all  # a change's messages, in one send (pipelined to Redis) or side by side
    held = asyncio.Event()  # the first change's messages wait for this

    async def slow_send_all(layer, table_id, messages):
        if any(message["type"] == "table.changed" and message["version"] == first for _group, message in messages):
            await held.wait()
        await send_all(layer, table_id, messages)

    async def act_as_the_player_to_act():
        hand = await db(running_hand, table)
        actor = alice if hand.turn_seat == 1 else bob
        kind = "check" if (await db(rebuild, hand)).legal_actions().can_check else "call"
        await db(services.act, table_id=table.pk, user=actor, kind=kind, amount=None, sequence=hand.sequence)

    async def scenario():
        spectator = await table_viewer(table).connect()
        monkeypatch.setattr(notify, "_send_all", slow_send_all)
        try:
            # Both writers return while the first change's send still waits: they did not wait for it.
            await asyncio.wait_for(act_as_the_player_to_act(), timeout=5)  # the small blind completes
            await asyncio.wait_for(act_as_the_player_to_act(), timeout=5)  # the big blind's option: check
            assert await spectator.communicator.receive_nothing(0.3)  # nothing overtook the held send
            held.set()
            assert [felt_version(await spectator.receive()), felt_version(await spectator.receive())] == [
                first,
                first + 1,
            ]
        finally:
            monkeypatch.setattr(notify, "_send_all", send_all)
        await spectator.close()

    async_to_sync(scenario)()
