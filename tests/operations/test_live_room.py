"""The live room page for staff: running tables with their hand, players, time on the turn,
last action and a "stuck" mark; the clock's last tick; sockets open; kept current over a
staff-only socket."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone

from operations import consumers
from operations.room import room_now
from operations.routing import websocket_urlpatterns
from tables.models import Hand
from tables.services import run_clock

from ..support.sockets import db, logged_in_session, table_viewer
from ..support.tables import sit, start_hand

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_running_tables(heads_up, make_table, make_player):
    table, _alice, _bob = heads_up
    start_hand(table)
    other = make_table(name="Stuck table")
    carol, dave = make_player("carol"), make_player("dave")
    sit(other, carol, 1)
    sit(other, dave, 2)
    stuck = start_hand(other)
    Hand.objects.filter(pk=stuck.pk).update(turn_deadline=timezone.now() - timedelta(seconds=11))
    return table, other


def test_the_room_shows_each_running_table_and_marks_a_stuck_hand(two_running_tables):
    _table, _other = two_running_tables
    run_clock(now=timezone.now() - timedelta(seconds=30))  # a tick (that expires nothing yet)
    room = room_now(timezone.now())
    by_name = {row.name: row for row in room.tables}
    assert set(by_name) == {"Heads-up PL", "Stuck table"}
    assert by_name["Heads-up PL"].players == ["alice", "bob"] and not by_name["Heads-up PL"].stuck
    assert by_name["Heads-up PL"].to_act == "alice" and by_name["Heads-up PL"].hand_number == 1
    assert by_name["Heads-up PL"].last_action and by_name["Heads-up PL"].on_turn_seconds >= 0
    assert by_name["Stuck table"].stuck
    assert room.last_tick_seconds_ago is not None and room.last_tick_seconds_ago < 30


def test_the_page_is_for_staff(two_running_tables, client, django_user_model, make_player):
    client.force_login(make_player())
    assert client.get(reverse("admin:live_room")).status_code == 302  # to the admin's log-in
    client.force_login(django_user_model.objects.create_superuser(username="boss", password="x"))
    page = client.get(reverse("admin:live_room")).content.decode()
    assert "Stuck table" in page and "STUCK" in page and 'ws-connect="/ws/staff/room/"' in page


def _staff_socket(user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/staff/room/")
    communicator.scope["user"] = user
    communicator.scope["client"] = ("10.9.9.9", 5000)
    return communicator


def test_the_staff_socket_keeps_the_room_current_and_counts_sockets(
    two_running_tables, django_user_model, make_player, monkeypatch
):
    table, _other = two_running_tables
    monkeypatch.setattr(consumers, "REFRESH_SECONDS", 0.2)
    boss = django_user_model.objects.create_superuser(username="boss", password="x")

    async def scenario():
        player = _staff_socket(await db(make_player))
        player.scope["session"] = await db(logged_in_session, player.scope["user"])
        connected, _ = await player.connect()
        assert not connected or (await player.receive_output(2))["type"] == "websocket.close"
        anonymous = _staff_socket(AnonymousUser())
        connected, _ = await anonymous.connect()
        assert not connected or (await anonymous.receive_output(2))["type"] == "websocket.close"

        staff = _staff_socket(boss)
        staff.scope["session"] = await db(logged_in_session, boss)
        connected, _ = await staff.connect()
        assert connected
        first = await staff.receive_from(3)
        assert "Stuck table" in first and 'id="live-room"' in first
        watcher = await table_viewer(table).connect()  # a socket opens at a table: the next refresh counts it
        async with asyncio.timeout(5):
            while "1 at tables" not in (frame := await staff.receive_from(3)):
                pass
        assert "1 staff" in frame
        await watcher.close()
        await staff.disconnect()

    async_to_sync(scenario)()
