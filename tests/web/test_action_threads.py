"""Each table's frames are applied on one of a few threads of the process
(``tables.realtime.action_threads``): one table's change that waits (on PostgreSQL, on its
lock) holds up no other table's, and a table's own frames still run one after another, in the
order they came."""

import asyncio
import threading
from collections import Counter

import pytest
from asgiref.sync import async_to_sync

from config.db_threads import KeyedDatabaseThreads, thread_of
from tables.models import Seat
from tables.realtime.action_threads import on_action_thread

from ..support.sockets import current_sequence, table_viewer
from ..support.tables import sit, start_hand

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_keys_calls_run_on_one_thread_in_order_and_other_keys_beside_them():
    threads = KeyedDatabaseThreads("test-keyed", lambda: 2)
    same = next(key for key in range(1, 100) if thread_of(key, 2) == thread_of(0, 2))  # key 0's thread
    other = next(key for key in range(1, 100) if thread_of(key, 2) != thread_of(0, 2))
    ran: list[tuple[int, str, int]] = []
    release = threading.Event()

    def record(key: int, number: int, wait: bool = False) -> None:
        if wait:
            release.wait(5)
        ran.append((key, threading.current_thread().name, number))

    async def scenario():
        held = asyncio.ensure_future(threads.run(0, record)(0, 0, True))  # key 0's thread, busy
        queued = [asyncio.ensure_future(threads.run(same, record)(same, n)) for n in range(1, 4)]
        await threads.run(other, record)(other, 0)  # the other thread, not held
        assert ran == [(other, ran[0][1], 0)]
        release.set()
        await asyncio.gather(held, *queued)

    try:
        async_to_sync(scenario)()
    finally:
        threads.stop()
    names = {key: {name for k, name, _ in ran if k == key} for key in (0, same, other)}
    assert len(names[0]) == 1 and names[0] == names[same] and names[0] != names[other]
    assert [n for k, _, n in ran if k in (0, same)] == [0, 1, 2, 3]  # in the order they were made


@pytest.mark.parametrize("processes", [2, 3])
def test_the_tables_one_process_serves_spread_over_all_its_threads(processes):
    """A proxy routing by table id modulo the processes sends each process the tables of one
    remainder: every one of a process's four threads still gets a fair share of them (by the
    id's remainder alone, with two processes each used two threads)."""
    for remainder in range(processes):
        tables = range(remainder, 400 * processes, processes)
        shares = Counter(thread_of(table_id, 4) for table_id in tables)
        assert sorted(shares) == [0, 1, 2, 3]
        assert min(shares.values()) >= 0.8 * len(tables) / 4


def test_a_tables_action_is_applied_while_another_tables_thread_is_held(make_player, make_table, settings):
    settings.ACTION_THREADS = 2
    first, second = make_table(name="Held"), make_table(name="Playing")
    for number in range(1, 20):
        if thread_of(first.pk, 2) != thread_of(second.pk, 2):
            break
        second = make_table(name=f"Playing {number}")  # the next id: perhaps the other thread
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
