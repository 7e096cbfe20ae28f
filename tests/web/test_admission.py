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
    alice, bob = make_player(), make_player()
    sit(table, alice, 1)  # its change caches who is seated
    sit(table, bob, 2)
    version = table_version(table)
    release = threading.Event()

    async def scenario():
        bob_tab = table_viewer(table, bob)
        bob_tab.communicator.scope["session"] = await db(logged_in_session, bob)
        await bob_tab.connect()  # the table plays here
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
            assert f'data-retry-after="{admission.RETRY_AFTER_SECONDS["busy"]}"' in excess.frames[0]
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
        for tab in (bob_tab, alice_tab, *waiting, late):
            await tab.close()

    async_to_sync(scenario)()


def test_a_busier_process_asks_refused_pages_to_wait_longer():
    assert 0 < admission.RETRY_AFTER_SECONDS["busy"] < admission.RETRY_AFTER_SECONDS["swamped"] <= 30


def test_the_work_in_flight_is_bounded_for_seated_players_too(settings):
    settings.WEBSOCKET_MAX_IN_FLIGHT = 4
    flight = admission.InFlight()
    for _ in range(4):
        flight.enter()
    assert not flight.admits(False) and flight.admits(True) and flight.admits(True, joins_playing_table=True)
    for _ in range(2):
        flight.enter()  # one and a half times the bound: only a player joining a table playing here
    assert not flight.admits(True) and flight.admits(True, joins_playing_table=True)
    for _ in range(2):
        flight.enter()
    assert not flight.admits(True, joins_playing_table=True)  # twice the bound: everyone waits for a retry


def test_past_the_bound_a_player_joining_a_table_playing_here_comes_before_a_table_not_started(
    make_table, make_player, settings, channel_layer
):
    """Tables fill up whole: between one and a half and twice the bound, a seated player whose
    table already has a seated player's screen here is taken, one whose table has none waits
    (1013); once the first screen closes, that table is not playing here any more."""
    settings.WEBSOCKET_MAX_IN_FLIGHT = 2
    playing, waiting = make_table(), make_table()
    alice, bob, carol = make_player(), make_player(), make_player()
    sit(playing, alice, 1)
    sit(playing, bob, 2)
    sit(waiting, carol, 1)

    async def logged_in(table, player):
        tab = table_viewer(table, player)
        tab.communicator.scope["session"] = await db(logged_in_session, player)
        return tab

    async def scenario():
        alice_tab = await (await logged_in(playing, alice)).connect()
        assert admission.tables_here.playing(playing.pk) and not admission.tables_here.playing(waiting.pk)
        for _ in range(3):
            admission.in_flight.enter()
        try:
            carol_tab = await logged_in(waiting, carol)
            connected, _ = await carol_tab.communicator.connect(timeout=2)
            assert connected and await carol_tab.closed_with() == admission.TRY_AGAIN_LATER
            bob_tab = await logged_in(playing, bob)
            connected, _ = await bob_tab.communicator.connect(timeout=2)
            assert connected
            assert 'id="felt"' in await bob_tab.receive()
            await bob_tab.close()
            await alice_tab.close()
            assert not admission.tables_here.playing(playing.pk)
            again = await logged_in(playing, bob)
            connected, _ = await again.communicator.connect(timeout=2)
            assert connected and await again.closed_with() == admission.TRY_AGAIN_LATER
        finally:
            for _ in range(3):
                admission.in_flight.leave()

    async_to_sync(scenario)()


def test_at_twice_the_bound_a_socket_is_refused_in_its_handshake_before_its_session_is_read(
    make_table, make_player, settings, monkeypatch
):
    """Nobody is taken at twice the bound: the refusal costs no session, user or seat read
    (``RefuseWhenSwamped``), and says so in the language the browser asks for."""
    from channels.testing import WebsocketCommunicator

    from accounts import socket_users
    from config.asgi import application

    settings.WEBSOCKET_MAX_IN_FLIGHT = 2
    table = make_table()
    alice = make_player()
    sit(table, alice, 1)
    session = logged_in_session(alice)
    read: list[str] = []

    def reads(what):
        def read_it(*args, **kwargs):
            read.append(what)
            raise AssertionError(f"{what} read for a refused socket")

        return read_it

    monkeypatch.setattr(socket_users, "cached_user", reads("the session's user"))
    monkeypatch.setattr(admission, "is_seated", reads("the seated players"))
    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"origin", b"http://127.0.0.1:8000"),
        (b"cookie", f"sessionid={session.session_key}".encode()),
        (b"accept-language", b"es-ES,es;q=0.9"),
    ]

    async def scenario():
        for _ in range(4):
            admission.in_flight.enter()
        try:
            for path in (f"/ws/tables/{table.pk}/", "/ws/lobby/", "/ws/tournaments/"):
                communicator = WebsocketCommunicator(application, path, headers=headers)
                connected, _ = await communicator.connect(timeout=2)
                assert connected
                frame = await communicator.receive_from(timeout=2)
                assert "La sala está muy ocupada" in frame and 'id="table-error"' in frame
                # At twice the bound the page is asked to wait longer than past it.
                assert f'data-retry-after="{admission.RETRY_AFTER_SECONDS["swamped"]}"' in frame
                closed = await communicator.receive_output(timeout=2)
                assert closed == {"type": "websocket.close", "code": admission.TRY_AGAIN_LATER}
                await communicator.wait(timeout=2)
        finally:
            for _ in range(4):
                admission.in_flight.leave()

    async_to_sync(scenario)()
    assert read == []


def test_at_twice_the_bound_a_seated_player_is_refused_without_reading_who_is_seated(
    make_table, make_player, settings, channel_layer, monkeypatch
):
    settings.WEBSOCKET_MAX_IN_FLIGHT = 2
    table = make_table()
    alice = make_player()
    sit(table, alice, 1)
    asked: list[int] = []
    monkeypatch.setattr(admission, "is_seated", lambda table_id, user_id: asked.append(user_id) or True)

    async def scenario():
        alice_tab = table_viewer(table, alice)
        alice_tab.communicator.scope["session"] = await db(logged_in_session, alice)
        for _ in range(2):
            admission.in_flight.enter()
        try:
            # Past the bound, under twice it: her seat decides, from the cache.
            connected, _ = await alice_tab.communicator.connect(timeout=2)
            assert connected and asked == [alice.pk]
            await alice_tab.close()
            for _ in range(2):
                admission.in_flight.enter()  # twice the bound: refused, the seat not asked
            again = table_viewer(table, alice)
            again.communicator.scope["session"] = await db(logged_in_session, alice)
            connected, _ = await again.communicator.connect(timeout=2)
            assert connected and await again.closed_with() == admission.TRY_AGAIN_LATER
            assert asked == [alice.pk]
        finally:
            for _ in range(4):
                admission.in_flight.leave()

    async_to_sync(scenario)()


def test_handshakes_still_reading_their_session_count_toward_the_bound(settings):
    """A process whose handshakes wait (for the cache, the database) refuses the next ones at
    once, before they queue behind them past their clients' patience."""
    from channels.testing import WebsocketCommunicator

    settings.WEBSOCKET_MAX_IN_FLIGHT = 2
    release = asyncio.Event()

    async def slow_to_answer(scope, receive, send):
        await receive()
        await release.wait()  # reading the session, the user...
        await send({"type": "websocket.accept"})
        await receive()

    application = admission.RefuseWhenSwamped(slow_to_answer)

    async def scenario():
        waiting = [WebsocketCommunicator(application, "/ws/tables/1/") for _ in range(4)]
        pending = [asyncio.ensure_future(c.connect(timeout=3)) for c in waiting]
        await asyncio.sleep(0.1)
        assert admission.handshakes.count == 4 and admission.in_flight.swamped
        refused = WebsocketCommunicator(application, "/ws/tables/1/", headers=[(b"accept-language", b"en")])
        connected, _ = await refused.connect(timeout=2)
        assert connected and "busy" in await refused.receive_from(timeout=2)
        assert await refused.receive_output(timeout=2) == {"type": "websocket.close", "code": 1013}
        release.set()
        for connected, _ in await asyncio.gather(*pending):
            assert connected
        assert admission.handshakes.count == 0 and not admission.in_flight.swamped
        for communicator in waiting:
            await communicator.disconnect()

    async_to_sync(scenario)()


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def serve(flight: admission.InFlight, clock: FakeClock, seconds: float, times: int = 1, gap: float = 0.11) -> None:
    """``times`` pieces of work served ``gap`` apart, each having taken ``seconds``."""
    for _ in range(times):
        clock.now += gap
        flight.pressure.served(seconds)


def test_a_standing_queue_presses_the_process_and_a_burst_does_not(settings):
    """CoDel's test: pressed when nothing served in a whole interval took under the target."""
    settings.ADMISSION_TARGET_MS, settings.ADMISSION_INTERVAL_MS = 100, 1000
    clock = FakeClock()
    flight = admission.InFlight(clock)
    started = flight.enter()
    clock.now += 0.3
    flight.leave(started)  # what it took is what the process tells its pressure
    serve(flight, clock, 0.3, times=5)  # a burst, then one quick in the same interval: no queue
    serve(flight, clock, 0.01)
    serve(flight, clock, 0.3, times=5)
    assert not flight.pressed
    serve(flight, clock, 0.15, times=20)  # every one slow for a whole interval
    flight.enter()  # still something in flight
    assert flight.pressed
    assert not flight.admits(None, new_table=True)  # under the bound, but no new table
    assert flight.admits(None) and flight.admits(None, joins_playing_table=True)  # its own tables go on
    flight.leave()
    serve(flight, clock, 0.02, times=10)  # an interval with quick ones again
    assert not flight.pressed and flight.admits(None, new_table=True)


def test_past_the_bound_a_seated_player_is_taken_only_to_a_table_playing_here(settings):
    settings.WEBSOCKET_MAX_IN_FLIGHT = 4
    flight = admission.InFlight()
    for _ in range(4):
        flight.enter()
    assert not flight.admits(True, new_table=True)
    assert flight.admits(True, joins_playing_table=True)


def test_a_few_slow_pieces_of_work_are_not_a_queue(settings):
    settings.ADMISSION_TARGET_MS, settings.ADMISSION_INTERVAL_MS = 100, 1000
    clock = FakeClock()
    flight = admission.InFlight(clock)
    serve(flight, clock, 0.5, times=admission.Pressure.LEAST_SERVED - 1, gap=0.3)  # 2.7 s, too few to judge
    flight.enter()
    assert not flight.pressed
    serve(flight, clock, 0.5, times=1, gap=0.3)
    assert flight.pressed  # now ten, all slow
    flight.leave()
    clock.now += 1.5  # nothing in flight, nothing served for an interval: an idle process
    assert not flight.pressed
    flight.enter()
    assert flight.pressed  # work again, and no interval judged since
    serve(flight, clock, 0.5, times=1, gap=admission.Pressure.QUIET_INTERVALS)  # too few served to judge since
    assert not flight.pressed


def test_a_pressed_process_takes_no_new_table_and_keeps_playing_its_own(
    make_table, make_player, settings, channel_layer
):
    """Under its bound of work in flight, a pressed process still refuses every socket of a
    table not playing here, a seated player's too (1013, with the longer wait); the players of
    a table playing here are taken, and once its queue drains a new table is taken again."""
    settings.ADMISSION_TARGET_MS, settings.ADMISSION_INTERVAL_MS = 100, 1000
    playing, waiting = make_table(), make_table()
    alice, bob, carol = make_player(), make_player(), make_player()
    sit(playing, alice, 1)
    sit(playing, bob, 2)
    sit(waiting, carol, 1)
    clock = FakeClock()
    real = admission.in_flight.pressure
    pressure = admission.Pressure(clock)

    async def logged_in(table, player):
        tab = table_viewer(table, player)
        tab.communicator.scope["session"] = await db(logged_in_session, player)
        return tab

    def slow_interval(seconds: float) -> None:
        for _ in range(admission.Pressure.LEAST_SERVED + 1):
            clock.now += 0.11
            pressure.served(seconds)

    async def scenario():
        alice_tab = await (await logged_in(playing, alice)).connect()
        admission.in_flight.pressure = pressure  # from here on its intervals are the test's
        slow_interval(0.5)
        assert admission.in_flight.count == 0 and admission.in_flight.pressed  # served within the interval
        carol_tab = await logged_in(waiting, carol)
        connected, _ = await carol_tab.communicator.connect(timeout=2)
        assert connected and await carol_tab.closed_with() == admission.TRY_AGAIN_LATER
        assert f'data-retry-after="{admission.RETRY_AFTER_SECONDS["full"]}"' in carol_tab.frames[0]
        watcher = table_viewer(waiting)
        connected, _ = await watcher.communicator.connect(timeout=2)
        assert connected and await watcher.closed_with() == admission.TRY_AGAIN_LATER
        bob_tab = await logged_in(playing, bob)
        assert 'id="felt"' in (await bob_tab.connect()).frames[0]
        slow_interval(0.01)  # drained: quick again for an interval
        assert not admission.in_flight.pressed
        carol_again = await logged_in(waiting, carol)
        assert 'id="felt"' in (await carol_again.connect()).frames[0]
        for tab in (alice_tab, bob_tab, carol_again):
            await tab.close()

    try:
        async_to_sync(scenario)()
    finally:
        admission.in_flight.pressure = real


def test_a_pressed_process_refuses_a_new_table_in_its_handshake(settings):
    """The refusal a pressed process makes most (a table not playing here) costs no session,
    user or consumer either, and asks for the longest wait; its own tables' sockets and the
    lobby's go on."""
    from channels.testing import WebsocketCommunicator

    settings.ADMISSION_TARGET_MS, settings.ADMISSION_INTERVAL_MS = 100, 1000
    clock = FakeClock()
    admission.in_flight.pressure = admission.Pressure(clock)
    for _ in range(admission.Pressure.LEAST_SERVED + 1):
        clock.now += 0.11
        admission.in_flight.pressure.served(0.5)
    reached = []

    async def consumer(scope, receive, send):
        reached.append(scope["path"])
        await receive()
        await send({"type": "websocket.accept"})
        await receive()

    application = admission.RefuseWhenSwamped(consumer)

    async def scenario():
        admission.tables_here.shown(7)
        try:
            assert admission.in_flight.pressed
            refused = WebsocketCommunicator(application, "/ws/tables/8/", headers=[(b"accept-language", b"es")])
            connected, _ = await refused.connect(timeout=2)
            frame = await refused.receive_from(timeout=2)
            assert connected and f'data-retry-after="{admission.RETRY_AFTER_SECONDS["full"]}"' in frame
            assert "ocupada" in frame  # in the browser's language
            assert await refused.receive_output(timeout=2) == {"type": "websocket.close", "code": 1013}
            for path in ("/ws/tables/7/", "/ws/lobby/"):
                taken = WebsocketCommunicator(application, path)
                connected, _ = await taken.connect(timeout=2)
                assert connected
                await taken.disconnect()
            assert reached == ["/ws/tables/7/", "/ws/lobby/"]
        finally:
            admission.tables_here.closed(7)

    async_to_sync(scenario)()
