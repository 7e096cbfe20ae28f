"""Admission control (tables/realtime/admission.py): past its bound of work in flight a
server process refuses a watcher's new socket with 1013 before any database work, and
still takes a seated player's."""

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync

from tables.realtime import admission
from tables.realtime.snapshot_threads import on_snapshot_thread

from ..support.sockets import db, felt_version, logged_in_session, table_viewer
from ..support.tables import sit, table_version

pytestmark = pytest.mark.django_db(transaction=True)


def test_past_the_bound_a_watcher_gets_1013_and_a_seated_player_is_served(
    make_table, make_player, settings, channel_layer
):
    settings.WEBSOCKET_MAX_IN_FLIGHT = 2
    table = make_table()
    alice = make_player()
    sit(table, alice, 1)  # its change caches who is seated
    version = table_version(table)
    release = threading.Event()

    async def scenario():
        alice_tab = table_viewer(table, alice)
        alice_tab.communicator.scope["session"] = await db(logged_in_session, alice)
        # The snapshot threads are busy: the sockets that open wait there for their snapshots.
        busy = [asyncio.ensure_future(on_snapshot_thread(release.wait)()) for _ in range(settings.SNAPSHOT_THREADS)]
        waiting = [table_viewer(table) for _ in range(2)]
        try:
            for watcher in waiting:
                connected, _ = await watcher.communicator.connect(timeout=2)
                assert connected
            assert admission.in_flight.count == 2
            # Past the bound: a watcher is refused at once, "try again later".
            excess = table_viewer(table)
            connected, _ = await excess.communicator.connect(timeout=2)
            assert connected and await excess.closed_with() == admission.TRY_AGAIN_LATER
            assert "busy" in excess.frames[0]
            # A seated player's socket is still taken.
            connected, _ = await alice_tab.communicator.connect(timeout=2)
            assert connected
        finally:
            release.set()
            await asyncio.gather(*busy)
        # Every socket taken is served once the work drains, the seated player's included.
        assert felt_version(await alice_tab.until_version(version)) == version
        for watcher in waiting:
            assert felt_version(await watcher.until_version(version)) == version
        assert admission.in_flight.count == 0
        late = await table_viewer(table).connect()  # under the bound again: taken
        for tab in (alice_tab, *waiting, late):
            await tab.close()

    async_to_sync(scenario)()


def test_the_work_in_flight_is_bounded_for_seated_players_too(settings):
    settings.WEBSOCKET_MAX_IN_FLIGHT = 3
    flight = admission.InFlight()
    for _ in range(3):
        flight.enter()
    assert not flight.admits(False) and flight.admits(True)
    for _ in range(3):
        flight.enter()
    assert not flight.admits(True)  # twice the bound: everyone waits for a retry
