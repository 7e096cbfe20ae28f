"""A socket connecting, or a player dropping and coming back, costs only that socket's own
snapshot: nobody else's screen is rendered or sent again (a reconnect storm stays cheap)."""

import asyncio
import contextlib
import re
import threading
import time

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import services
from tables.realtime import notify, sockets
from tables.realtime.consumers import TableConsumer
from tables.selectors.hands import rebuild

from ..support.sockets import db, felt_version, logged_in_session, table_viewer
from ..support.tables import running_hand, sit, table_version

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def renders(monkeypatch):
    """Every time the notify layer renders a table's screens."""
    rendered = []
    render_screens = notify.screens
    monkeypatch.setattr(notify, "screens", lambda *args: rendered.append(render_screens(*args)) or rendered[-1])
    return rendered


def in_a_hand(make_table, make_player, *, seated: int):
    """A table with ``seated`` players in seats 1, 2, ... and a hand running: (table, players)."""
    table = make_table()
    players = [make_player() for _ in range(seated)]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    services.start_hand_if_due(table_id=table.pk)
    return table, players


def test_connects_and_reconnects_render_nothing_for_the_others(make_table, make_player, renders, channel_layer):
    table, players = in_a_hand(make_table, make_player, seated=6)
    hand = running_hand(table)
    waiting = next(p for n, p in enumerate(players, start=1) if n != hand.turn_seat)

    async def scenario():
        tabs = [await table_viewer(table, player).connect() for player in players]
        renders.clear()
        spectator = await table_viewer(table).connect()  # a connect
        dropped = next(tab for tab, player in zip(tabs, players, strict=True) if player == waiting)
        await dropped.close()  # a presence change: the player's last socket closes...
        back = await table_viewer(table, waiting).connect()  # ...and they come back
        assert renders == []  # each socket read its own snapshot; no screen rendered for the table
        version = await db(table_version, table)
        current = await db(running_hand, table)
        kind = "check" if (await db(rebuild, current)).legal_actions().can_check else "call"
        actor = players[current.turn_seat - 1]
        await db(services.act, table_id=table.pk, user=actor, kind=kind, amount=None, sequence=current.sequence)
        assert len(renders) == 1
        for tab in [t for t in tabs if t is not dropped] + [spectator, back]:
            assert felt_version(await tab.receive()) == version + 1  # the action's frame came first
            await tab.close()

    async_to_sync(scenario)()


@contextlib.asynccontextmanager
async def database_thread_busy():
    """Hold the one thread that every ``database_sync_to_async`` call of the consumers uses
    (channels' log-in check, the chat), as a storm of work there would."""
    release = threading.Event()
    busy = asyncio.ensure_future(database_sync_to_async(release.wait)())
    try:
        yield
    finally:
        release.set()
        await busy


def test_a_connect_is_answered_and_shown_while_the_database_thread_is_busy(make_table, make_player):
    """In a reconnect storm the database thread is a queue (the log-in check of every new
    socket): a handshake or a snapshot that waited in it would time out, be
    retried and lengthen the queue. The socket is accepted first and its snapshot is read on a
    snapshot thread (``tables.realtime.snapshot_threads``)."""
    table = make_table()
    player = make_player()
    sit(table, player, 1)
    viewer = table_viewer(table, player)
    version = table_version(table)

    async def scenario():
        viewer.communicator.scope["session"] = await db(logged_in_session, player)
        async with database_thread_busy():
            connected, _ = await viewer.communicator.connect(timeout=1)
            assert connected
            assert felt_version(await viewer.receive()) == version
        await viewer.close()

    async_to_sync(scenario)()


def test_a_closed_table_accepts_the_socket_and_closes_it_at_once(make_table, make_player):
    table = make_table()
    services.close_table(table_id=table.pk)
    viewer = table_viewer(table, make_player())

    async def scenario():
        viewer.communicator.scope["session"] = await db(logged_in_session, viewer.user)
        connected, _ = await viewer.communicator.connect()
        assert connected
        assert (await viewer.communicator.receive_output(2))["type"] == "websocket.close"  # and nothing of the table

    async_to_sync(scenario)()


def test_a_change_reaches_the_sockets_while_the_database_thread_is_busy(make_table, make_player):
    """Forwarding a change to a socket needs no database: it does not wait for the thread
    where the writes queue (one trip per socket and message would, in a busy server)."""
    table, players = in_a_hand(make_table, make_player, seated=2)
    hand = running_hand(table)
    version = table_version(table)

    def act_in_another_thread():
        try:
            services.act(table_id=table.pk, user=players[hand.turn_seat - 1], kind="call", amount=None,
                         sequence=hand.sequence)  # fmt: skip
        finally:
            connection.close()

    async def scenario():
        spectator = await table_viewer(table).connect()
        async with database_thread_busy():
            await asyncio.to_thread(act_in_another_thread)
            assert felt_version(await spectator.receive()) == version + 1
        await spectator.close()

    async_to_sync(scenario)()


def test_a_seated_players_connect_is_a_few_statements(make_table, make_player):
    """What a connect asks the database (``TableConsumer.opening``, its one trip to the database
    thread): the table, its seats (whose presence marks tell whether the player comes back
    after being marked gone) and latest hand, and the chat with the mutes read once. A
    reconnect storm costs each socket these and no more."""
    table, players = in_a_hand(make_table, make_player, seated=6)
    rebuild(running_hand(table))  # the process holds the hand's replay, as the writer's does
    consumer = TableConsumer()
    consumer.table_id, consumer.user = table.pk, players[0]
    consumer.presence = (sockets.seat_presence_key(table.pk, players[0].pk),)
    with CaptureQueriesContext(connection) as counting:
        opening = consumer.opening(time.monotonic())  # joined its groups just now
    assert opening is not None and 'id="felt"' in opening[0][1].get("own-seat", "") + "".join(
        opening[0][0].public["en"].values()
    )
    assert len(counting) <= 5, [query["sql"] for query in counting.captured_queries]


def test_the_sockets_of_a_table_opening_together_read_its_state_once(make_table, make_player, settings):
    """A restarted process's sockets all come back at once: those of one table that waited for
    the snapshot threads share the read of its state, and of its recent chat, that began after
    they joined its groups (``tables.selectors.shared_reads``), each still shown its own screen;
    a socket that joins later reads the table again."""
    from tables.realtime import snapshot_threads
    from tables.realtime.snapshot_threads import on_snapshot_thread
    from tables.selectors.shared_reads import recent_chats, table_states

    table, players = in_a_hand(make_table, make_player, seated=6)
    version = table_version(table)
    release = threading.Event()

    async def scenario():
        tabs = [table_viewer(table, player) for player in players]
        for tab in tabs:
            tab.communicator.scope["session"] = await db(logged_in_session, tab.user)
        busy = [asyncio.ensure_future(on_snapshot_thread(release.wait)()) for _ in range(settings.SNAPSHOT_THREADS)]
        reads, chats = table_states.reads, recent_chats.reads
        try:
            for tab in tabs:
                connected, _ = await tab.communicator.connect(timeout=2)
                assert connected
            queue = snapshot_threads._threads._threads._work_queue  # type: ignore[union-attr]
            for _ in range(500):  # every socket joined its groups and waits for a snapshot thread
                if queue.qsize() >= len(tabs):
                    break
                await asyncio.sleep(0.01)
            assert queue.qsize() == len(tabs)
        finally:
            release.set()
            await asyncio.gather(*busy)
        frames = [await tab.receive() for tab in tabs]
        assert (table_states.reads, recent_chats.reads) == (reads + 1, chats + 1)
        assert {felt_version(frame) for frame in frames} == {version}
        shown = [frozenset(re.findall(r'data-card="(\w\w)"', frame)) for frame in frames]
        assert all(len(cards) == 4 for cards in shown) and len(set(shown)) == len(players)  # each its own cards
        late = await table_viewer(table).connect()  # joined after that read began
        assert (table_states.reads, recent_chats.reads) == (reads + 2, chats + 2)
        for tab in [*tabs, late]:
            await tab.close()

    async_to_sync(scenario)()
