"""Each table's frames are applied on one of a few threads of the process
(``tables.realtime.action_threads``): one table's change that waits (on PostgreSQL, on its
lock) holds up no other table's, and a table's own frames still run one after another, in the
order they came."""

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync

from config.db_threads import KeyedDatabaseThreads
from tables.models import Seat
from tables.realtime.action_threads import on_action_thread

from ..support.sockets import current_sequence, table_viewer
from ..support.tables import sit, start_hand

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_keys_calls_run_on_one_thread_in_order_and_other_keys_beside_them():
    threads = KeyedDatabaseThreads("test-keyed", lambda: 2)
    ran: list[tuple[int, str, int]] = []
    release = threading.Event()

    def record(key: int, number: int, wait: bool = False) -> None:
        if wait:
            release.wait(5)
        ran.append((key, threading.current_thread().name, number))

    async def scenario():
        held = asyncio.ensure_future(threads.run(0, record)(0, 0, True))  # key 0's thread, busy
        queued = [asyncio.ensure_future(threads.run(2, record)(2, n)) for n in range(1, 4)]  # key 2: 0's thread
        await threads.run(1, record)(1, 0)  # key 1: the other thread, not held
        assert ran == [(1, ran[0][1], 0)]
        release.set()
        await asyncio.gather(held, *queued)

    try:
        async_to_sync(scenario)()
    finally:
        threads.stop()
    names = {key: {name for k, name, _ in ran if k == key} for key in (0, 1, 2)}
    assert len(names[0]) == 1 and names[0] == names[2] and names[0] != names[1]
    assert [n for k, _, n in ran if k in (0, 2)] == [0, 1, 2, 3]  # in the order they were made


def test_a_tables_action_is_applied_while_another_tables_thread_is_held(make_player, make_table, settings):
    settings.ACTION_THREADS = 2
    first, second = make_table(name="Held"), make_table(name="Playing")
    if first.pk % 2 == second.pk % 2:
        second = make_table(name="Playing on")  # the next id: the other thread
    alice, bob = make_player("alice"), make_player("bob")
    sit(second, alice, 1)
    sit(second, bob, 2)
    start_hand(second)
    release = threading.Event()

    async def scenario():
        held = asyncio.ensure_future(on_action_thread(first.pk, release.wait)(10))  # the first table's thread
        try:
            alice_tab = await table_viewer(second, alice).connect()
            await alice_tab.send(action="raise", amount="6", sequence=str(await current_sequence(second)))
            await alice_tab.until("raises to 6", timeout=5)
            assert not held.done()  # the first table still waits
            await alice_tab.close()
        finally:
            release.set()
            await held

    async_to_sync(scenario)()
    assert Seat.objects.get(table=second, player=alice).stack == 194
