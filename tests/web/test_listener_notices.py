"""A process whose sockets of a table open together sends one ``listeners.joined`` notice for
them, sent after they all joined their groups (``listeners.tell_others_joined``)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync

from tables.realtime import listeners


class Layer:
    def __init__(self, fail: bool = False) -> None:
        self.sent: list[tuple[str, dict]] = []
        self.fail = fail

    async def group_send(self, group: str, message: dict) -> None:
        await asyncio.sleep(0.01)  # a round trip
        if self.fail:
            raise ConnectionError("the layer is away")
        self.sent.append((group, message))


def test_the_sockets_of_a_table_opening_together_send_one_notice():
    layer = Layer()

    async def scenario():
        await asyncio.gather(*(listeners.tell_others_joined(layer, 7, "table-7") for _ in range(6)))
        assert layer.sent == [("table-7", {"type": "listeners.joined", "table_id": 7})]
        # Once sent, a socket that opens later needs a notice of its own; another table its own.
        await asyncio.gather(
            listeners.tell_others_joined(layer, 7, "table-7"), listeners.tell_others_joined(layer, 8, "table-8")
        )
        assert sorted(group for group, _ in layer.sent) == ["table-7", "table-7", "table-8"]

    async_to_sync(scenario)()


def test_a_socket_that_joins_while_the_notice_is_on_its_way_sends_another():
    layer = Layer()

    async def scenario():
        first = asyncio.ensure_future(listeners.tell_others_joined(layer, 7, "table-7"))
        await asyncio.sleep(0.005)  # the notice is being sent: it may not tell of this one
        await listeners.tell_others_joined(layer, 7, "table-7")
        await first
        assert len(layer.sent) == 2

    async_to_sync(scenario)()


def test_every_socket_waiting_for_a_notice_that_failed_is_told():
    layer = Layer(fail=True)

    async def scenario():
        outcomes = await asyncio.gather(
            *(listeners.tell_others_joined(layer, 7, "table-7") for _ in range(3)), return_exceptions=True
        )
        assert all(isinstance(outcome, ConnectionError) for outcome in outcomes)
        layer.fail = False
        await listeners.tell_others_joined(layer, 7, "table-7")  # nothing left of the failed one
        assert len(layer.sent) == 1

    async_to_sync(scenario)()


@pytest.fixture(autouse=True)
def no_notice_left():
    yield
    assert not listeners._notices
