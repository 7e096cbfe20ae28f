"""A socket's screen comes right again after its messages were lost: dropped by the layer,
sent to a group membership that expired, or lost with a channel layer that restarted empty
(tables/realtime/socket_recovery.py). Each screen carries the table's version; a socket behind its
table for a moment catches up by itself, with no further change at the table."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import OperationalError

from tables import services
from tables.realtime import socket_recovery

from ..support.sockets import db, felt_version, table_viewer
from ..support.tables import act, running_hand, start_hand, table_version

pytestmark = pytest.mark.django_db(transaction=True)

LOSSY = "tests.support.layers.LossyChannelLayer"
REJOIN = socket_recovery.REJOIN


@pytest.fixture(autouse=True)
def close_the_watchers_connection():
    """The version watcher reads on asgiref's own database thread (a context of its own):
    close that thread's connection after each test, so the test database can be dropped."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result(10)


@pytest.fixture
def lossy_layer(settings, monkeypatch):
    """A layer that loses what a test says; the watcher looks often and waits a little."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": LOSSY}}
    monkeypatch.setattr(socket_recovery, "WATCH_SECONDS", 0.1)
    monkeypatch.setattr(socket_recovery, "STALE_SECONDS", 0.3)
    monkeypatch.setattr(socket_recovery, "RETRY_SECONDS", 0.05)
    return get_channel_layer()


def run(scenario):
    async_to_sync(scenario)()


def test_a_dropped_message_is_caught_up_by_the_screen_version(heads_up, lossy_layer):
    table, alice, bob = heads_up
    start_hand(table)

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        bob_tab = await table_viewer(table, bob).connect()
        spectator = await table_viewer(table).connect()
        lossy_layer.drop_groups = {f"table-{table.pk}", f"table-{table.pk}-player-{alice.pk}"}
        lossy_layer.drop_groups.add(f"table-{table.pk}-player-{bob.pk}")
        await db(act, table, alice, "call")
        version = await db(table_version, table)
        assert lossy_layer.dropped  # the change's screens never reached the sockets
        lossy_layer.drop_groups = set()
        for tab in (alice_tab, bob_tab, spectator):
            frame = await tab.until_version(version, timeout=5)
            assert felt_version(frame) == version
        assert 'data-act="check"' in bob_tab.frames[-1]  # bob's own controls: his turn now
        assert 'data-act="check"' not in alice_tab.frames[-1]
        for tab in (alice_tab, bob_tab, spectator):
            await tab.close()

    run(scenario)


def test_an_expired_group_membership_is_joined_again(heads_up, settings, monkeypatch):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": LOSSY, "CONFIG": {"group_expiry": 1}}}
    monkeypatch.setattr(socket_recovery, "WATCH_SECONDS", 0.1)
    monkeypatch.setattr(socket_recovery, "STALE_SECONDS", 0.3)
    table, alice, bob = heads_up
    start_hand(table)

    async def scenario():
        spectator = await table_viewer(table).connect()
        await asyncio.sleep(2.2)  # the membership is older than group_expiry: it ends
        await db(act, table, alice, "call")
        caught_up = await db(table_version, table)
        await spectator.until_version(caught_up, timeout=5)
        # Joined again: the next change comes through the group, long before the watcher would.
        monkeypatch.setattr(socket_recovery, "STALE_SECONDS", 3600)
        await db(act, table, bob, "check")
        await spectator.until_version(await db(table_version, table), timeout=3)
        await spectator.close()

    run(scenario)


def test_a_restarted_layer_makes_every_socket_rejoin_and_catch_up(heads_up, lossy_layer):
    table, alice, _bob = heads_up
    start_hand(table)

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        spectator = await table_viewer(table).connect()
        group = f"table-{table.pk}"
        assert len(lossy_layer.groups[group]) == 2
        lossy_layer.restart()  # every membership forgotten, every waiting receive fails
        assert not lossy_layer.groups
        async with asyncio.timeout(3):
            while len(lossy_layer.groups.get(group, ())) < 2:
                await asyncio.sleep(0.05)
        # Rejoined: a change reaches both sockets through their groups again.
        frames_before = len(spectator.frames)
        await db(act, table, alice, "call")
        version = await db(table_version, table)
        for tab in (alice_tab, spectator):
            await tab.until_version(version, timeout=5)
        assert len(spectator.frames) > frames_before
        for tab in (alice_tab, spectator):
            await tab.close()

    run(scenario)


def test_an_action_that_meets_a_database_outage_is_told_to_try_again(heads_up, monkeypatch):
    table, alice, _bob = heads_up
    start_hand(table)

    def database_away(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        hand = await db(running_hand, table)
        before = await db(table_version, table)
        monkeypatch.setattr(services, "act", database_away)
        await alice_tab.send(action="call", sequence=hand.sequence)
        await alice_tab.until("reconnecting", timeout=3)
        assert alice_tab.errors[-1].strip() == "The table is reconnecting, try again."
        assert await db(table_version, table) == before  # nothing applied
        monkeypatch.undo()
        await alice_tab.send(action="call", sequence=hand.sequence)  # the same socket, tried again
        await alice_tab.until_version(before + 1)
        await alice_tab.close()

    run(scenario)


def test_the_pub_sub_layer_losing_redis_is_one_warning_line_and_other_errors_stay_errors(caplog):
    import logging

    import redis.exceptions

    import tables.realtime.socket_recovery  # noqa: F401  (installs the filter)

    logger = logging.getLogger("channels_redis.pubsub")
    for error in (redis.exceptions.ConnectionError("Connection closed by server."), ValueError("a bug")):
        try:
            raise error
        except Exception:
            logger.exception("Unexpected exception in receive task")
    outage, bug = caplog.records[-2:]
    assert (outage.levelname, outage.exc_info) == ("WARNING", None)
    assert "Connection closed by server." in outage.getMessage()
    assert bug.levelname == "ERROR" and bug.exc_info is not None


@pytest.mark.django_db
def test_a_chat_line_with_redis_away_is_stored_and_logged_not_raised(
    monkeypatch, make_table, caplog, django_capture_on_commit_callbacks
):
    """The dealer's line is written inside the clock's transaction: Redis being away when it is
    published on commit must not fail the clock's tick (the line shows on reconnect)."""
    import redis.exceptions
    from django.utils import timezone

    from tables.models import ChatMessage
    from tables.realtime import notify
    from tables.services.chat import say_hand_started

    class AwayLayer:
        async def group_send(self, group, message):
            raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")

    monkeypatch.setattr(notify, "get_channel_layer", lambda: AwayLayer())
    table = make_table()
    with django_capture_on_commit_callbacks(execute=True):
        say_hand_started(table, 1, timezone.now())
    assert ChatMessage.objects.filter(table=table, kind=ChatMessage.Kind.HAND_STARTED).exists()
    assert any("chat line not published" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)


def test_a_process_behind_with_its_work_catches_no_socket_up(monkeypatch):
    """Sockets behind their table while the whole process is behind (its loop late, or its
    database thread queued) are slow, not missing a message: a whole screen for each would
    put the process further behind, so the watcher waits until it is not."""
    assert not socket_recovery.process_behind(late=0.01, read=0.05)
    assert socket_recovery.process_behind(late=socket_recovery.BEHIND_SECONDS + 0.1, read=0.05)
    assert socket_recovery.process_behind(late=0.01, read=socket_recovery.BEHIND_SECONDS + 0.1)
    monkeypatch.setattr(socket_recovery, "WATCH_SECONDS", 0.01)
    monkeypatch.setattr(socket_recovery, "STALE_SECONDS", 0.0)

    assert REJOIN in _watched(monkeypatch, read_seconds=0.0)  # a process keeping up: the socket catches up
    assert _watched(monkeypatch, read_seconds=socket_recovery.BEHIND_SECONDS + 0.1) == []


def test_a_socket_still_at_work_is_slow_not_missing_a_message(monkeypatch):
    """A socket behind its table while it handles a frame (under load, every socket of a
    table may wait seconds for the table's frames: at 200 tables the bench's draining players
    did) or with messages in its line is not told to catch up: a snapshot would queue behind
    that work. Only an idle socket with nothing waiting has lost a message."""
    monkeypatch.setattr(socket_recovery, "WATCH_SECONDS", 0.01)
    monkeypatch.setattr(socket_recovery, "STALE_SECONDS", 0.0)
    assert REJOIN in _watched(monkeypatch, read_seconds=0.0)
    assert _watched(monkeypatch, read_seconds=0.0, idle=False) == []
    waiting = {"type": "table.changed"}
    assert _watched(monkeypatch, read_seconds=0.0, waiting=waiting) == [waiting]


def _watched(monkeypatch, *, read_seconds: float, idle: bool = True, waiting: dict | None = None) -> list:
    """What the watcher puts in the line of a socket showing version 3 of a table at 9, watched
    for a while (``read_seconds``: how long its read of the versions waits for the database
    thread; ``idle``: whether the socket waits for its next message; ``waiting``: one already
    in its line)."""

    class Socket(socket_recovery.RecoveringConsumer):
        table_id, sent_version, advanced_at, stale_since = 1, 3, 0.0, None

    async def versions(table_ids):
        await asyncio.sleep(read_seconds)  # the database thread's queue
        return dict.fromkeys(table_ids, 9)

    monkeypatch.setattr(socket_recovery, "database_sync_to_async", lambda fn: versions)
    socket = Socket()
    socket.idle = idle
    watcher = socket_recovery.LiveSockets()

    async def scenario():
        socket.inbox = asyncio.Queue()
        if waiting is not None:
            socket.inbox.put_nowait(waiting)
        watcher.sockets.add(socket)
        task = asyncio.ensure_future(watcher.watch_versions())
        await asyncio.sleep(socket_recovery.BEHIND_SECONDS * 2.5)
        watcher.sockets.clear()
        await task

    async_to_sync(scenario)()
    return list(socket.inbox._queue)
