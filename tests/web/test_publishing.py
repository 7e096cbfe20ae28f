"""How a server process publishes a change's screens: the worker thread that made the change
hands them to the event loop and goes on (it does not wait for Redis), and a table's screens
still go out in the order of its changes."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables import services
from tables.realtime import notify, publishing
from tables.selectors.hands import rebuild
from tables.services import chat

from ..support.sockets import db, felt_version, table_viewer
from ..support.tables import running_hand, sit, table_version

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_slow_send_keeps_neither_the_writer_waiting_nor_the_next_change_ahead(heads_up, channel_layer, monkeypatch):
    table, alice, bob = heads_up
    services.start_hand_if_due(table_id=table.pk)
    first = table_version(table) + 1
    send_all = publishing.send_all  # a change's messages, in one send (pipelined to Redis) or side by side
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
        monkeypatch.setattr(publishing, "send_all", slow_send_all)
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
            monkeypatch.setattr(publishing, "send_all", send_all)
        await spectator.close()

    async_to_sync(scenario)()


def test_a_chat_line_goes_after_the_screens_before_it_and_keeps_no_writer_waiting(heads_up, channel_layer, monkeypatch):
    """A chat line committed on a server's thread (a table's action thread: a pot won is said
    by the action that ended the hand) is handed to the loop like the screens: the thread goes
    on at once, and the line goes out after the screens of the change before it."""
    table, alice, bob = heads_up
    services.start_hand_if_due(table_id=table.pk)
    first = table_version(table) + 1
    send_all = publishing.send_all
    held = asyncio.Event()

    async def slow_send_all(layer, table_id, messages):
        if any(message["type"] == "table.changed" and message["version"] == first for _group, message in messages):
            await held.wait()
        await send_all(layer, table_id, messages)

    async def scenario():
        spectator = await table_viewer(table).connect()
        monkeypatch.setattr(publishing, "send_all", slow_send_all)
        try:
            hand = await db(running_hand, table)
            actor = alice if hand.turn_seat == 1 else bob
            await asyncio.wait_for(
                db(services.act, table_id=table.pk, user=actor, kind="call", amount=None, sequence=hand.sequence), 5
            )
            await asyncio.wait_for(db(chat.send_message, user=bob, table_id=table.pk, text="nice call"), 5)
            assert await spectator.communicator.receive_nothing(0.3)  # the line did not overtake the screens
            held.set()
            assert felt_version(await spectator.receive()) == first
            assert "nice call" in await spectator.receive()
        finally:
            monkeypatch.setattr(publishing, "send_all", send_all)
        await spectator.close()

    async_to_sync(scenario)()


def test_a_lobby_line_keeps_no_writer_waiting(heads_up, make_player, channel_layer, monkeypatch):
    """A change's lobby line, sent from a server's thread, is handed to the loop: the thread
    that made the change (a player taking a seat: the line shows the seats taken) does not wait
    for its send; the lobby gets it once the send ends."""
    table, _alice, _bob = heads_up
    carol = make_player("carol")
    layer = get_channel_layer()
    group_send = layer.group_send
    held = asyncio.Event()
    lobby_sends: list[dict] = []

    async def slow_group_send(group, message):
        if group == notify.LOBBY_GROUP:
            await held.wait()
            lobby_sends.append(message)
        await group_send(group, message)

    async def scenario():
        monkeypatch.setattr(layer, "group_send", slow_group_send)
        await asyncio.wait_for(db(sit, table, carol, 3), 5)  # the lobby line waits
        assert lobby_sends == []
        held.set()
        for _ in range(50):
            if lobby_sends:
                break
            await asyncio.sleep(0.02)
        assert [message["table_id"] for message in lobby_sends] == [table.pk]

    async_to_sync(scenario)()
