"""Admission control (tables/realtime/admission.py): past its bound of work in flight a
server process refuses a watcher's new socket with 1013 before any database work, and
still takes a seated player's."""

import asyncio
import re
import threading

import pytest
from asgiref.sync import async_to_sync

from tables.realtime import admission, refusals
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
        for tab in (alice_tab, *waiting, late):
            await tab.close()

    async_to_sync(scenario)()


def test_a_busier_process_asks_refused_pages_to_wait_longer():
    assert 0 < admission.RETRY_AFTER_SECONDS["busy"] < admission.RETRY_AFTER_SECONDS["swamped"] <= 30


def test_the_work_in_flight_is_bounded_for_seated_players_too_when_tables_are_not(settings):
    """Without a bound on the tables served: past the bound a watcher waits; past one and a half
    times it a player whose table is not playing here too. A player joining a table playing
    here is taken at any count: a table missing one of its players plays at the pace of that
    player's clock."""
    settings.WEBSOCKET_MAX_IN_FLIGHT = 4
    settings.WEBSOCKET_MAX_TABLES = 0
    flight = admission.InFlight()
    for _ in range(4):
        flight.enter()
    assert not flight.admits(False) and flight.admits(True) and flight.admits(True, joins_playing_table=True)
    assert flight.asks_seated() and flight.asks_seated(True)
    for _ in range(2):
        flight.enter()  # one and a half times the bound: only a player joining a table playing here
    assert not flight.admits(True) and flight.admits(True, joins_playing_table=True)
    for _ in range(10):
        flight.enter()  # four times the bound
    assert flight.swamped and not flight.asks_seated() and flight.asks_seated(True)
    assert flight.admits(True, joins_playing_table=True) and not flight.admits(True) and not flight.admits(False)


def test_while_the_tables_served_are_bounded_every_seated_player_is_taken_and_watchers_wait(settings):
    """With ``WEBSOCKET_MAX_TABLES`` the tables a process serves bound what their players bring:
    a seated player's socket is taken at any count (a table's players come in together, and
    none of them plays at the pace of their clock for want of a socket); watchers wait."""
    settings.WEBSOCKET_MAX_IN_FLIGHT = 4
    settings.WEBSOCKET_MAX_TABLES = 10
    flight = admission.InFlight()
    for _ in range(16):
        flight.enter()  # four times the bound
    assert flight.swamped and flight.asks_seated()
    assert flight.admits(True) and flight.admits(True, joins_playing_table=True) and not flight.admits(False)


def test_past_the_bound_a_player_joining_a_table_playing_here_comes_before_a_table_not_started(
    make_table, make_player, settings, channel_layer
):
    """Tables fill up whole: between one and a half and twice the bound, a seated player whose
    table already has a seated player's screen here is taken, one whose table has none waits
    (1013); once the first screen closes, that table is not playing here any more."""
    settings.WEBSOCKET_MAX_IN_FLIGHT = 2
    settings.WEBSOCKET_MAX_TABLES = 0  # no bound on tables: seated players wait past the bound too
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
    settings.WEBSOCKET_MAX_TABLES = 0  # no bound on tables: seated players wait past the bound too
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
    settings.WEBSOCKET_MAX_TABLES = 0  # no bound on tables: seated players wait past the bound too
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
    settings.WEBSOCKET_MAX_TABLES = 0  # no bound on tables: seated players wait past the bound too
    release = asyncio.Event()

    async def slow_to_answer(scope, receive, send):
        await receive()
        await release.wait()  # reading the session, the user...
        await send({"type": "websocket.accept"})
        await receive()

    application = refusals.RefuseWhenSwamped(slow_to_answer)

    async def scenario():
        waiting = [WebsocketCommunicator(application, "/ws/tables/1/") for _ in range(4)]
        pending = [asyncio.ensure_future(c.connect(timeout=3)) for c in waiting]
        await asyncio.sleep(0.1)
        assert admission.handshakes.count == 4 and admission.in_flight.swamped
        # (another table's: a socket joining table 1, served here already, would go on to its consumer)
        refused = WebsocketCommunicator(application, "/ws/tables/2/", headers=[(b"accept-language", b"en")])
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


def accepting(reached: list[str]):
    """An application standing for the consumers: it notes each socket's path and accepts it."""

    async def consumer(scope, receive, send):
        reached.append(scope["path"])
        await receive()
        await send({"type": "websocket.accept"})
        while (await receive())["type"] != "websocket.disconnect":
            pass

    return consumer


def test_a_process_serving_its_most_tables_sheds_a_new_table_whole_before_any_work(settings):
    """Past ``WEBSOCKET_MAX_TABLES`` a socket for a table the process does not serve is refused
    in its handshake (1013; a first refusal asks for the short wait, a table still shed after it
    for the longer, paced one), before the application reads anything;
    the tables it serves keep taking sockets, and once one of them closes its last socket a new
    table is taken."""
    from channels.testing import WebsocketCommunicator

    settings.WEBSOCKET_MAX_TABLES = 2
    reached: list[str] = []
    application = refusals.RefuseWhenSwamped(accepting(reached))

    async def opened(path: str) -> WebsocketCommunicator:
        communicator = WebsocketCommunicator(application, path, headers=[(b"accept-language", b"es")])
        connected, _ = await communicator.connect(timeout=2)
        assert connected
        return communicator

    async def refused(path: str) -> str:
        communicator = WebsocketCommunicator(application, path, headers=[(b"accept-language", b"es")])
        connected, _ = await communicator.connect(timeout=2)
        assert connected
        frame = await communicator.receive_from(timeout=2)
        assert await communicator.receive_output(timeout=2) == {"type": "websocket.close", "code": 1013}
        await communicator.wait(timeout=2)
        return frame

    async def scenario():
        first = [await opened("/ws/tables/1/"), await opened("/ws/tables/1/")]
        second = await opened("/ws/tables/2/")
        assert len(admission.tables_served) == 2
        frame = await refused("/ws/tables/3/")
        assert "La sala está llena" in frame
        assert f'data-retry-after="{admission.RETRY_AFTER_SECONDS["busy"]}"' in frame  # its first refusal
        assert admission.RETRY_AFTER_SECONDS["full"] > admission.RETRY_AFTER_SECONDS["busy"]
        watcher = await opened("/ws/tables/2/")  # a table served here still takes sockets
        lobby = await opened("/ws/lobby/")  # and the lobby is not a table
        assert reached.count("/ws/tables/3/") == 0
        await first[0].disconnect()
        await refused("/ws/tables/3/")  # table 1 still has a socket here
        await first[1].disconnect()
        third = await opened("/ws/tables/3/")  # table 1 closed its last: table 3 is taken
        assert reached.count("/ws/tables/3/") == 1
        for communicator in (second, watcher, lobby, third):
            await communicator.disconnect()
        assert len(admission.tables_served) == 0

    async_to_sync(scenario)()


def test_without_a_bound_on_tables_every_table_is_served(settings):
    settings.WEBSOCKET_MAX_TABLES = 0
    served = admission.TablesServed()
    assert all(served.take(table_id) for table_id in range(1, 1000))
    assert len(served) == 999


def test_a_watcher_holds_no_table_served_and_a_player_does(make_table, make_player, settings, channel_layer):
    """Watchers cannot keep players' tables out: a watcher's socket counts toward
    ``WEBSOCKET_MAX_TABLES`` only while it opens; a seated player's holds its table."""
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    settings.WEBSOCKET_MAX_TABLES = 1
    watched, played, other = make_table(), make_table(), make_table()
    alice = make_player()
    sit(played, alice, 1)
    session = logged_in_session(alice)
    origin = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000")]
    as_alice = [*origin, (b"cookie", f"sessionid={session.session_key}".encode())]

    async def shown(path, headers):
        communicator = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await communicator.connect(timeout=5)
        assert connected
        assert 'id="felt"' in await communicator.receive_from(timeout=5)
        return communicator

    async def scenario():
        watcher = await shown(f"/ws/tables/{watched.pk}/", origin)
        assert len(admission.tables_served) == 0  # the watcher holds none
        player = await shown(f"/ws/tables/{played.pk}/", as_alice)
        assert len(admission.tables_served) == 1
        refused = WebsocketCommunicator(application, f"/ws/tables/{other.pk}/", headers=origin)
        connected, _ = await refused.connect(timeout=5)
        assert connected and "The room is full" in await refused.receive_from(timeout=5)
        assert await refused.receive_output(timeout=5) == {"type": "websocket.close", "code": 1013}
        await player.disconnect()
        assert len(admission.tables_served) == 0
        again = await shown(f"/ws/tables/{other.pk}/", origin)  # room again
        for communicator in (watcher, again):
            await communicator.disconnect()

    async_to_sync(scenario)()


def test_at_twice_the_bound_a_socket_of_a_table_playing_here_still_reaches_its_consumer(settings):
    """The handshake's refusal at twice the bound spares the sockets of a table playing here:
    their consumer takes a seated player's (and refuses a watcher's) once the session is read."""
    from channels.testing import WebsocketCommunicator

    settings.WEBSOCKET_MAX_IN_FLIGHT = 2
    settings.WEBSOCKET_MAX_TABLES = 0  # no bound on tables: seated players wait past the bound too
    reached: list[str] = []
    application = refusals.RefuseWhenSwamped(accepting(reached))

    async def scenario():
        admission.tables_here.shown(1)
        for _ in range(4):
            admission.in_flight.enter()
        try:
            playing = WebsocketCommunicator(application, "/ws/tables/1/")
            connected, _ = await playing.connect(timeout=2)
            assert connected and reached == ["/ws/tables/1/"]
            other = WebsocketCommunicator(application, "/ws/tables/2/", headers=[(b"accept-language", b"en")])
            connected, _ = await other.connect(timeout=2)
            assert connected and "busy" in await other.receive_from(timeout=2)
            assert await other.receive_output(timeout=2) == {"type": "websocket.close", "code": 1013}
            assert reached == ["/ws/tables/1/"]
            await playing.disconnect()
        finally:
            for _ in range(4):
                admission.in_flight.leave()
            admission.tables_here.closed(1)

    async_to_sync(scenario)()


def test_the_pages_of_shed_tables_are_asked_to_come_back_at_the_processs_pace(settings):
    """Past saturation the shed tables' pages outnumber the served ones many times over, and
    each try is a whole handshake: each refusal is given the next free moment of
    ``WEBSOCKET_SHED_RETRIES_PER_SECOND``, at least the fixed wait ahead, at most the longest;
    as time passes the waits shrink back to the fixed one."""
    settings.WEBSOCKET_SHED_RETRIES_PER_SECOND = 10
    now = [1000.0]
    waits = refusals.ShedWaits(clock=lambda: now[0])
    least, longest = admission.RETRY_AFTER_SECONDS["full"], refusals.FULL_RETRY_MAX_SECONDS
    asked = [waits.wait() for _ in range(6000)]
    # Every moment given out is a tenth of a second after the one before: 10 tries a second.
    assert asked[0] == least and asked[10] == least + 1 and asked[300] == least + 30 and asked[5000] == least + 500
    assert asked == sorted(asked) and asked[-1] == longest  # past the longest: asked for it
    now[0] += 100
    assert longest - 101 <= waits.wait() <= longest - 99  # the next free moment, 100 s nearer
    now[0] += 10 * longest  # long after every page asked has come back
    assert waits.wait() == least
    settings.WEBSOCKET_SHED_RETRIES_PER_SECOND = 0  # unpaced: the fixed wait
    assert all(waits.wait() == least for _ in range(100))


def test_a_table_refused_for_the_first_time_is_asked_for_the_short_wait_and_only_then_for_its_turn(settings):
    """A table turned away here for the first time most often comes from a process of the room
    that has just gone away (killed, restarting) and that the proxy sends it back to a second
    later: for ``FIRST_REFUSALS_SECONDS`` its pages are asked for the short "busy" wait, which
    takes no moment of the pace; past that it is shed and waits its turn. Served here, or not
    refused for longer than any wait asked, its next refusal is a first one again."""
    settings.WEBSOCKET_SHED_RETRIES_PER_SECOND = 10
    now = [1000.0]
    waits = refusals.ShedWaits(clock=lambda: now[0])
    short, least = admission.RETRY_AFTER_SECONDS["busy"], admission.RETRY_AFTER_SECONDS["full"]
    assert short < least
    assert [waits.wait(7) for _ in range(6)] == [short] * 6  # a table's six players at once
    now[0] += refusals.FIRST_REFUSALS_SECONDS
    assert waits.wait(7) == short  # still within its first refusals
    assert waits.wait(8) == short  # another table's first
    now[0] += 1
    assert waits.wait(7) == least  # shed: its turn, the first moment of the pace (none taken before)
    assert waits.wait(7) == least  # the next moment, a tenth of a second later, rounded
    assert waits.wait(8) == short  # 8's first refusal was a second ago
    waits.served(7)
    assert waits.wait(7) == short  # served here since: a first refusal again
    now[0] += refusals.FULL_RETRY_MAX_SECONDS + 1
    assert waits.wait(8) == short  # not refused for longer than any wait asked
    settings.WEBSOCKET_SHED_RETRIES_PER_SECOND = 0
    assert waits.wait(9) == short and waits.wait() == least


def test_past_a_processs_worth_of_tables_refused_for_the_first_time_the_others_are_shed_at_once(settings):
    """A process that went away served at most ``WEBSOCKET_MAX_TABLES`` tables: a room starting
    past its capacity (every table refused for the first time) gives the short wait to that
    many tables in ``FIRSTS_COUNTED_SECONDS``, and sheds the others at once, at the pace: not a
    new process's worth each time the short waits end, every one of them a crowd of handshakes."""
    settings.WEBSOCKET_MAX_TABLES = 3
    settings.WEBSOCKET_SHED_RETRIES_PER_SECOND = 10
    now = [1000.0]
    waits = refusals.ShedWaits(clock=lambda: now[0])
    short, least = admission.RETRY_AFTER_SECONDS["busy"], admission.RETRY_AFTER_SECONDS["full"]
    assert [waits.wait(table) for table in (1, 2, 3, 1, 2)] == [short] * 5  # a process's worth, twice
    assert waits.wait(4) == least and waits.wait(4) == least  # the fourth: shed, however often
    now[0] += refusals.FIRST_REFUSALS_SECONDS + 1
    assert waits.wait(1) >= least  # the first three's short waits are over
    assert waits.wait(5) == least  # and a process's worth had them this minute: shed at once
    now[0] += refusals.FIRSTS_COUNTED_SECONDS
    assert waits.wait(6) == short  # a minute on: room for another


def test_a_shed_tables_refusal_says_the_room_is_full_and_asks_for_its_paced_wait(settings, monkeypatch):
    """A crowd of refusals: a table's first ones ask for the short wait (one table here: a
    process's worth); the others, and it once shed, are asked to wait longer the later they
    come, in the browser's language."""
    from channels.testing import WebsocketCommunicator

    settings.WEBSOCKET_MAX_TABLES = 1
    settings.WEBSOCKET_SHED_RETRIES_PER_SECOND = 1
    now = [1000.0]
    monkeypatch.setattr(refusals, "shed_waits", refusals.ShedWaits(clock=lambda: now[0]))
    application = refusals.RefuseWhenSwamped(accepting([]))

    async def refuse_all():
        frames = []
        for table_id in range(2, 5):
            refused = WebsocketCommunicator(
                application, f"/ws/tables/{table_id}/", headers=[(b"accept-language", b"en")]
            )
            assert (await refused.connect(timeout=2))[0]
            frames.append(await refused.receive_from(timeout=2))
            assert await refused.receive_output(timeout=2) == {"type": "websocket.close", "code": 1013}
            await refused.wait(timeout=2)
        return frames

    async def scenario():
        served = WebsocketCommunicator(application, "/ws/tables/1/")
        assert (await served.connect(timeout=2))[0]
        first = await refuse_all()
        now[0] += refusals.FIRST_REFUSALS_SECONDS + 1
        shed = await refuse_all()
        await served.disconnect()
        return first, shed

    first, shed = async_to_sync(scenario)()
    short, least = admission.RETRY_AFTER_SECONDS["busy"], admission.RETRY_AFTER_SECONDS["full"]
    assert all("The room is full" in frame for frame in first + shed)
    asked = [re.search(r'data-retry-after="(\d+)"', frame).group(1) for frame in first + shed]  # type: ignore[union-attr]
    assert asked == [str(n) for n in (short, least, least + 1, least, least + 1, least + 2)]
