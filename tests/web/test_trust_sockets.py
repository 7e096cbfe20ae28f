"""Trust at the websocket: replayed frames, presence per seat, sockets that end with their
session, frame floods and too many sockets. Real consumers, real channel layer and database."""

import asyncio
import threading
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection

from cashier.selectors import bankroll_balance
from tables import services
from tables.models import Hand, Seat, TimeoutRecord
from tables.realtime.socket_guard import POLICY_VIOLATION, TokenBucket

from ..support.sockets import current_sequence, db, felt_version, table_viewer
from ..support.tables import running_hand, start_hand, table_version

pytestmark = pytest.mark.django_db(transaction=True)

SESSION_ENDED = 4401


def run(scenario):
    async_to_sync(scenario)()


def test_finding_1_a_replayed_sit_frame_creates_no_chips(heads_up, make_player, assert_audit_clean):
    """Sit, leave, then the same sit frame again, on the same socket and on a new one (a resend
    queued while offline): refused, and no seat appears that nobody paid for."""
    table, _alice, bob = heads_up
    mallory = make_player("mallory")

    async def scenario():
        tab = await table_viewer(table, mallory).connect()
        sit = {"action": "sit", "seat_number": "4", "buy_in": "200", "big_blind": "wait", "request_id": tab.request_id}
        await tab.send(**sit)
        await tab.until("Seat 4 · 200 chips")
        await tab.send(action="leave")
        await tab.until('id="sit-form"')
        await tab.send(**sit)
        await tab.until("table-error")
        later = await table_viewer(table, mallory).connect()
        await later.send(**sit)
        await later.until("table-error")
        assert tab.errors == later.errors == ["That request was already made."]
        await tab.close()
        await later.close()

    run(scenario)
    assert not Seat.objects.filter(player=mallory).exists()
    assert bankroll_balance(mallory) == 10_000
    services.leave(user=bob, table_id=table.pk)  # another player's cash-out finds its chips
    assert bankroll_balance(bob) == 10_000
    assert_audit_clean()


def test_finding_1_a_request_id_the_server_did_not_make_is_refused(heads_up, make_player, assert_audit_clean):
    table, _alice, _bob = heads_up
    carol, dave = make_player("carol"), make_player("dave")

    async def scenario():
        carols = await table_viewer(table, carol).connect()
        daves = await table_viewer(table, dave).connect()
        for request_id in ("4b1e8ad8-55b5-4a9c-9d5e-8f8f5f0f3c1a", daves.request_id):  # made up; another player's
            await carols.send(action="sit", seat_number="4", buy_in="100", big_blind="wait", request_id=request_id)
            await carols.until("table-error")
        assert carols.errors == ["That form is not valid: reload the page and try again."] * 2
        await carols.close()
        await daves.close()

    run(scenario)
    assert not Seat.objects.filter(player=carol).exists()
    assert bankroll_balance(carol) == 10_000
    assert_audit_clean()


def test_finding_4_a_second_socket_cannot_claim_the_reconnect_grace(heads_up):
    """With the main socket open, opening and closing another during your own turn adds no
    time and does not mark you offline: presence is per seat (RULES 6.3)."""
    table, alice, _bob = heads_up
    start_hand(table)  # heads-up alice (the button) acts first
    deadline = running_hand(table).turn_deadline

    async def scenario():
        main = await table_viewer(table, alice).connect()
        for _ in range(3):
            extra = await table_viewer(table, alice).connect()
            await extra.close()
            assert (await db(running_hand, table)).turn_deadline == deadline
            assert (await db(Seat.objects.get, player=alice)).disconnected_at is None
        await main.close()  # the last socket: now alice is gone
        assert (await db(Seat.objects.get, player=alice)).disconnected_at is not None
        back = await table_viewer(table, alice).connect()  # and back during her turn: the grace, once
        assert (await db(running_hand, table)).turn_deadline == deadline + timedelta(seconds=20)
        await back.close()

    run(scenario)


def _logged_out(session_key):
    Session.objects.filter(session_key=session_key).delete()
    cache.clear()  # the cached copy of the session too: no signal, no message, as a lost one


@pytest.mark.parametrize("how", ["log out", "change password", "deactivate"])
def test_finding_5_sockets_end_with_their_session(heads_up, client, how):
    table, alice, bob = heads_up

    def end_session(session):
        if how == "log out":
            client.cookies["sessionid"] = session.session_key
            client.post("/accounts/logout/")
        elif how == "change password":
            alice.set_password("a-New-strong-pass-77")
            alice.save()
        else:
            alice.is_active = False
            alice.save()

    async def scenario():
        tab = await table_viewer(table, alice).connect()
        other_player = await table_viewer(table, bob).connect()
        version = await db(table_version, table)
        await db(end_session, tab.communicator.scope["session"])
        assert await tab.closed_with() == SESSION_ENDED
        assert "Your session has ended." in tab.frames[-1]
        # Nobody else's socket is touched: the first frame bob gets is the table's next change.
        await db(services.sit_out, user=bob, table_id=table.pk)
        assert await db(table_version, table) == version + 1
        first = await other_player.receive()
        assert felt_version(first) == version + 1, first
        await other_player.close()

    run(scenario)


def test_finding_5_a_lost_close_message_still_cannot_act_for_an_ended_session(heads_up):
    """Authentication is checked again on every frame that changes something."""
    table, alice, _bob = heads_up
    start_hand(table)
    before = running_hand(table).sequence

    async def scenario():
        tab = await table_viewer(table, alice).connect()
        await db(_logged_out, tab.communicator.scope["session"].session_key)
        await tab.send(action="fold", sequence=str(await current_sequence(table)))
        assert await tab.closed_with() == SESSION_ENDED

    run(scenario)
    assert running_hand(table).sequence == before and Hand.objects.get().state == Hand.State.RUNNING


def test_an_action_frame_reads_its_sessions_check_in_its_budgets_trip(heads_up, monkeypatch):
    """After a socket's first frame, the session check of an action frame costs no trip to the
    cache of its own: what it reads comes with the frame's budget and note, as the frame
    arrives. And a session that ended before the frame arrived, with its close message lost,
    still cannot act."""
    from accounts import socket_sessions

    table, alice, bob = heads_up
    hand = start_hand(table)
    to_act = alice if Seat.objects.get(table=table, number=hand.turn_seat).player_id == alice.pk else bob
    trips = []
    backend = type(socket_sessions.cache._connections[socket_sessions.cache._alias])  # every thread's
    get_many = backend.get_many
    version = table_version(table)

    async def scenario():
        tab = await table_viewer(table, to_act).connect()
        await tab.send(action="chat", text="gl")  # the socket's first check: on its own
        await tab.until("gl")
        monkeypatch.setattr(backend, "get_many", lambda *a, **k: trips.append(a[1:]) or get_many(*a, **k))
        await tab.send(action="call", sequence=str(hand.sequence))
        await tab.until_version(version + 1)
        other = await table_viewer(table, alice if to_act == bob else bob).connect()
        await other.send(action="chat", text="nh")
        await other.until("nh")
        await db(_logged_out, other.communicator.scope["session"].session_key)
        await other.send(action="check", sequence=str(await current_sequence(table)))
        assert await other.closed_with() == SESSION_ENDED
        await tab.close()

    run(scenario)
    assert trips == []
    assert running_hand(table).sequence == hand.sequence + 1  # the call, and nothing after it


def test_a_flood_of_frames_gets_a_clear_error_and_a_policy_close(heads_up, settings):
    settings.WEBSOCKET_FRAME_BURST = 5
    settings.WEBSOCKET_FRAMES_PER_SECOND = 0.01
    table, alice, _bob = heads_up

    async def scenario():
        tab = await table_viewer(table, alice).connect()
        for _ in range(12):
            await tab.send_raw("not json")
        assert await tab.closed_with() == POLICY_VIOLATION
        assert tab.errors[:5] == ["That message could not be read."] * 5
        assert tab.errors[5] == "Too many messages: this connection is closed. Reload the page."

    run(scenario)


def test_a_users_sockets_together_have_one_frame_budget(heads_up, settings):
    """Eight tabs do not buy eight budgets: the frames of all a user's sockets draw on one
    bucket (in the shared cache, so over every server process), and the socket whose frame
    is past it gets the clear error and the policy close."""
    settings.WEBSOCKET_FRAME_BURST = 6
    settings.WEBSOCKET_FRAMES_PER_SECOND = 0.01
    table, alice, bob = heads_up

    async def scenario():
        tabs = [await table_viewer(table, alice).connect() for _ in range(3)]
        for tab in tabs:
            for _ in range(2):  # 6 frames in all: the whole budget
                await tab.send_raw("not json")
            while len(tab.errors) < 2:
                await tab.receive()
        assert [tab.errors for tab in tabs] == [["That message could not be read."] * 2] * 3
        await tabs[0].send_raw("not json")  # a seventh frame, on a socket that sent only two
        assert await tabs[0].closed_with() == POLICY_VIOLATION
        assert tabs[0].errors[-1] == "Too many messages: this connection is closed. Reload the page."
        other = await table_viewer(table, bob).connect()  # another user's budget is their own
        await other.send_raw("not json")
        await other.until("That message could not be read.")
        for tab in (*tabs[1:], other):
            await tab.close()

    run(scenario)


def test_an_action_frame_takes_one_frame_of_the_budget_and_notes_its_arrival_in_the_same_trip(
    heads_up, settings, monkeypatch
):
    """The frame of a player's action is counted against their budget once, and the note that
    it is on its way (RULES 6) is written in the same trip to the cache, as it arrives: not a
    second trip for the note, not a second frame taken when the frame's turn comes."""
    from tables.services import on_time

    settings.WEBSOCKET_FRAME_BURST = 3
    settings.WEBSOCKET_FRAMES_PER_SECOND = 0.01
    table, alice, bob = heads_up
    hand = start_hand(table)
    to_act = alice if Seat.objects.get(table=table, number=hand.turn_seat).player_id == alice.pk else bob
    noted_apart = []
    monkeypatch.setattr(on_time, "action_arrived", lambda **kwargs: noted_apart.append(kwargs) or True)
    version = table_version(table)

    async def scenario():
        tab = await table_viewer(table, to_act).connect()
        await tab.send(action="call", sequence=str(hand.sequence))  # frame 1
        await tab.until_version(version + 1)
        assert await db(cache.get, on_time._key(table.pk, hand.sequence, to_act.pk)) is not None
        for _ in range(2):  # frames 2 and 3: the rest of the budget
            await tab.send_raw("not json")
        while len(tab.errors) < 2:
            await tab.receive()
        await tab.send_raw("not json")  # a fourth
        assert await tab.closed_with() == POLICY_VIOLATION

    run(scenario)
    assert noted_apart == []


def test_the_frame_budget_refills_with_time():
    bucket = TokenBucket(capacity=3, per_second=2)
    start = bucket.updated
    assert [bucket.take(start) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(start + 0.4) is False  # 0.8 of a frame back
    assert bucket.take(start + 0.5) is True
    assert [bucket.take(start + 60) for _ in range(4)] == [True, True, True, False]  # never above the burst


def test_too_many_sockets_per_user_are_refused(heads_up, settings):
    settings.WEBSOCKET_MAX_PER_USER = 2
    table, alice, _bob = heads_up

    async def scenario():
        tabs = [await table_viewer(table, alice).connect() for _ in range(2)]
        extra = table_viewer(table, alice)
        assert await extra.communicator.connect()
        assert await extra.closed_with() == POLICY_VIOLATION
        assert "Too many open connections" in extra.frames[-1]
        await tabs[0].close()
        again = await table_viewer(table, alice).connect()  # a closed socket frees its place
        await again.close()
        await tabs[1].close()

    run(scenario)


def test_too_many_sockets_per_address_are_refused(heads_up, settings):
    settings.WEBSOCKET_MAX_PER_IP = 3
    table, _alice, _bob = heads_up

    async def scenario():
        watchers = [await table_viewer(table, client=("10.0.0.9", 4000 + k)).connect() for k in range(3)]
        extra = table_viewer(table, client=("10.0.0.9", 5000))
        assert await extra.communicator.connect()
        assert await extra.closed_with() == POLICY_VIOLATION
        elsewhere = await table_viewer(table, client=("10.0.0.10", 5000)).connect()  # another address
        for tab in (*watchers, elsewhere):
            await tab.close()

    run(scenario)


def test_rule_6_a_click_that_arrived_in_time_is_not_beaten_by_the_clock_while_it_waits(heads_up, assert_audit_clean):
    """RULES 6: the frame arrives before the deadline while the database thread is busy with
    others' work and the socket's own chat frame waits for it, the action in the socket's line
    behind that; the clock's tick comes past the deadline (another process: a thread here)
    before the action is applied. The clock leaves the turn alone and the click applies."""
    table, alice, bob = heads_up
    hand = start_hand(table)
    to_act = alice if Seat.objects.get(table=table, number=hand.turn_seat).player_id == alice.pk else bob

    def clock_tick(now):
        try:
            return services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=now)
        finally:
            connection.close()

    async def scenario():
        tab = await table_viewer(table, to_act).connect()
        busy = threading.Event()
        others_work = asyncio.ensure_future(db(busy.wait))  # the database thread, taken
        await asyncio.sleep(0.05)
        await tab.send(action="chat", text="thinking")  # the socket's frame in hand, waiting for the database
        await tab.send(action="fold", sequence=str(hand.sequence))  # in the socket's line behind it
        try:
            await asyncio.sleep(0.1)  # the frame arrived, and waits
            expired = await asyncio.to_thread(clock_tick, hand.turn_deadline + timedelta(seconds=1))
        finally:
            busy.set()
            await others_work
        assert expired is None
        await tab.until("chat-line")
        async with asyncio.timeout(5):
            while (await db(Hand.objects.get, pk=hand.pk)).state != Hand.State.COMPLETE:
                await asyncio.sleep(0.05)
        assert tab.errors == []
        await tab.close()

    run(scenario)
    assert not TimeoutRecord.objects.exists()
    assert Hand.objects.get(pk=hand.pk).state == Hand.State.COMPLETE  # folded by the click, heads-up
    assert_audit_clean()


def test_rule_6_a_refused_click_holds_the_clock_no_longer_and_an_applied_one_moves_the_turn_on(heads_up):
    """RULES 6: the note that a click is on its way is cleared when the click is refused (the
    turn is still the same: it must not keep holding the clock); an applied click moves the
    turn on, and its note, for a sequence gone, is left to expire: the clock asks about the
    new turn only."""
    from tables.services import on_time

    table, alice, bob = heads_up
    hand = start_hand(table)
    to_act = alice if Seat.objects.get(table=table, number=hand.turn_seat).player_id == alice.pk else bob
    first = on_time._key(table.pk, hand.sequence, to_act.pk)
    version = table_version(table)

    async def scenario():
        tab = await table_viewer(table, to_act).connect()
        await tab.send(action="raise", amount="1", sequence=str(hand.sequence))  # below any raise: refused
        async with asyncio.timeout(3):
            while not tab.errors:
                await tab.receive()
        assert await db(cache.get, first) is None  # refused: the clock runs again
        await tab.send(action="call", sequence=str(hand.sequence))
        await tab.until_version(version + 1)
        after = await db(running_hand, table)
        assert after is not None and after.sequence > hand.sequence
        assert await db(cache.get, first) is not None  # applied: left to expire (HOLD_SECONDS)
        deadline = hand.turn_deadline + timedelta(seconds=60)
        next_player = await db(lambda: Seat.objects.get(table=table, number=after.turn_seat).player_id)
        assert not await db(
            on_time.on_time_action_on_its_way,
            table_id=table.pk, sequence=after.sequence, user_id=next_player, deadline=deadline,
        )  # fmt: skip
        await tab.close()

    run(scenario)
