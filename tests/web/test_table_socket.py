"""The table websocket: snapshot on connect, actions through the services, refusals for the sender only."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.utils import timezone

from cashier.selectors import bankroll_balance
from tables import services
from tables.models import Hand, Seat, SeatSession
from tables.selectors.hands import rebuild

from ..support.sockets import current_sequence, db, felt_version, table_viewer
from ..support.tables import act, running_hand, sit, start_hand, table_version

pytestmark = pytest.mark.django_db(transaction=True)


def run(scenario):
    async_to_sync(scenario)()


def test_connect_sends_the_whole_table_to_a_spectator(heads_up):
    table, _alice, _bob = heads_up

    async def scenario():
        spectator = await table_viewer(table).connect()
        snapshot = spectator.frames[0]
        for element_id in ("felt", "controls", "seat-panel", "hand-log"):
            assert f'id="{element_id}"' in snapshot
        assert "alice" in snapshot and "bob" in snapshot
        assert "Log in" in snapshot  # a spectator is offered a log-in, not a seat form
        await spectator.close()

    run(scenario)


def test_a_second_tab_catches_up_with_the_running_hand(heads_up):
    table, alice, _bob = heads_up
    start_hand(table)

    async def scenario():
        first = await table_viewer(table, alice).connect()
        second = await table_viewer(table, alice).connect()
        for tab in (first, second):
            assert 'data-card="Kd"' in tab.frames[0]  # alice's own cards
            assert 'data-act="fold"' in tab.frames[0]  # heads-up the button acts first (RULES 2.3)
        await first.close()
        await second.close()

    run(scenario)


def test_an_action_updates_every_viewer(heads_up, channel_layer):
    table, alice, bob = heads_up
    start_hand(table)

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        bob_tab = await table_viewer(table, bob).connect()
        spectator = await table_viewer(table).connect()
        await alice_tab.send(action="raise", amount="6", sequence=str(await current_sequence(table)))
        bob_frame = await bob_tab.until('data-act="call"')
        assert "Call 4" in bob_frame and "raises to 6" in bob_frame
        assert "raises to 6" in await spectator.until("raises to 6")
        await alice_tab.until_version(felt_version(bob_frame))  # every frame of the raise, for alice too
        assert not any('data-act="call"' in frame for frame in alice_tab.frames[1:])
        for tab in (alice_tab, bob_tab, spectator):
            await tab.close()

    run(scenario)
    assert Seat.objects.get(player=alice).stack == 194


def _frozen(table):
    hand = running_hand(table)
    return hand.sequence, list(Seat.objects.order_by("number").values_list("stack", flat=True))


def _the_player_to_act_checks_or_calls(table):
    """A change of the table that every socket must be sent."""
    hand = running_hand(table)
    legal = rebuild(hand).legal_actions()
    act(table, Seat.objects.get(table=table, number=legal.seat).player, "check" if legal.can_check else "call")


def _refused_for_the_sender_only(table, sender, other, frame_for, message):
    """``frame_for(sequence)`` is sent by ``sender``: an error for them, nothing changed, and
    nothing for ``other``: the first frame ``other`` gets is the table's next change."""
    before, version = _frozen(table), table_version(table)

    async def scenario():
        sender_tab = await table_viewer(table, sender).connect()
        other_tab = await table_viewer(table, other).connect()
        await sender_tab.send(**frame_for(await current_sequence(table)))
        error = await sender_tab.receive()
        assert error.startswith('<div id="table-error"') and message in error
        assert await db(_frozen, table) == before
        await db(_the_player_to_act_checks_or_calls, table)
        assert await db(table_version, table) == version + 1  # the refusal changed no version
        first = await other_tab.receive()
        assert felt_version(first) == version + 1, first
        await sender_tab.close()
        await other_tab.close()

    run(scenario)


def test_a_stale_frame_is_refused_for_the_sender_only(heads_up):
    table, alice, bob = heads_up
    start_hand(table)
    stale = running_hand(table).sequence
    services.act(table_id=table.pk, user=alice, kind="call", amount=None, sequence=stale)
    # bob's "check" was made against the state before alice called.
    _refused_for_the_sender_only(
        table, bob, alice, lambda sequence: {"action": "check", "sequence": str(stale)}, "out of date"
    )


def test_an_out_of_turn_frame_is_refused_for_the_sender_only(heads_up):
    table, alice, bob = heads_up
    start_hand(table)
    _refused_for_the_sender_only(
        table, bob, alice, lambda sequence: {"action": "fold", "sequence": str(sequence)}, "not seat 2&#x27;s turn"
    )


def test_an_illegal_amount_is_refused(heads_up):
    table, alice, bob = heads_up
    start_hand(table)
    _refused_for_the_sender_only(
        table,
        alice,
        bob,
        lambda sequence: {"action": "raise", "amount": "7", "sequence": str(sequence)},
        "between 4 and 6",
    )


MALFORMED = [
    "not json",
    "[1, 2]",
    '"raise"',
    "null",
    json.dumps({"action": "dance", "sequence": "0"}),
    json.dumps({"action": "raise", "amount": "lots", "sequence": "0"}),
    json.dumps({"action": "raise", "amount": "6", "sequence": "zero"}),
    json.dumps({"action": "raise", "amount": "9" * 40, "sequence": "0"}),
    json.dumps({"action": "raise", "amount": 10**30, "sequence": 0}),
    json.dumps({"action": "raise", "amount": 6.5, "sequence": 0}),
    json.dumps({"action": "call", "sequence": {"$gt": 0}}),
    json.dumps({"action": "call", "sequence": [0]}),
    json.dumps({"action": "call", "sequence": True}),
    json.dumps({"action": ["call"], "sequence": "0"}),
    json.dumps({"action": "call"}),
    json.dumps({"action": "sit", "seat_number": "3", "buy_in": "100", "big_blind": "wait", "request_id": "x"}),
    json.dumps({"action": "call", "sequence": "0", "pad": "x" * 5000}),
    "[" * 2000,  # nested deeper than json can parse: RecursionError, not ValueError
    '{"a":' * 900 + "1" + "}" * 900,
]


def test_malformed_frames_get_an_error_and_the_socket_keeps_working(heads_up, settings):
    settings.WEBSOCKET_FRAME_BURST = 100  # these frames test the parsing, not the flood limit
    table, alice, _bob = heads_up
    start_hand(table)
    before = _frozen(table)

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        for text in MALFORMED:
            await alice_tab.send_raw(text)
            error = await alice_tab.receive()
            assert error.startswith('<div id="table-error"') and not error.endswith("></div>"), text
        await alice_tab.communicator.send_to(bytes_data=b"\x00\x01")
        assert (await alice_tab.receive()).startswith('<div id="table-error"')
        assert await db(_frozen, table) == before
        # Still usable: a good frame plays, and the error line is cleared.
        await alice_tab.send(action="call", sequence=str(await current_sequence(table)))
        assert await alice_tab.receive() == '<div id="table-error" class="table-error" role="alert"></div>'
        await alice_tab.close()

    run(scenario)
    assert Hand.objects.get().sequence == before[0] + 1


def test_a_spectator_cannot_act(heads_up):
    table, _alice, _bob = heads_up
    start_hand(table)

    async def scenario():
        spectator = await table_viewer(table).connect()
        await spectator.send(action="fold", sequence=str(await current_sequence(table)))
        assert "Log in to play" in await spectator.receive()
        await spectator.close()

    run(scenario)
    assert running_hand(table) is not None


def test_a_repeated_buy_in_or_top_up_frame_moves_chips_once(heads_up, make_player, assert_audit_clean):
    table, _alice, _bob = heads_up
    carol = make_player("carol")

    async def scenario():
        tab = await table_viewer(table, carol).connect()
        sit = {"action": "sit", "seat_number": "4", "buy_in": "150", "big_blind": "now", "request_id": tab.request_id}
        await tab.send(**sit)
        await tab.until("Seat 4 · 150 chips")
        await tab.send(**sit)  # a double click, or a resend queued while offline
        await tab.until("table-error")
        top_up = {"action": "top_up", "amount": "30", "request_id": tab.request_id}
        await tab.send(**top_up)
        await tab.until("Seat 4 · 180 chips")
        await tab.send(**top_up)
        await tab.until("That top-up was already made.")
        assert tab.errors == ["That request was already made.", "That top-up was already made."]
        await tab.close()

    run(scenario)
    seat = Seat.objects.get(player=carol)
    assert (seat.number, seat.stack, seat.posts_big_blind_now) == (4, 180, True)
    assert bankroll_balance(carol) == 10_000 - 180
    assert_audit_clean()


def test_seat_controls_sit_out_come_back_top_up_and_leave(heads_up, assert_audit_clean):
    table, _alice, bob = heads_up
    services.leave(user=bob, table_id=table.pk)
    # Half an hour later (RULES 7.5 would ask him for the 200 he left with before that).
    SeatSession.objects.filter(player=bob).update(ended_at=timezone.now() - timedelta(minutes=31))
    sit(table, bob, 2, buy_in=150)  # room for 50 more: the top-up form is offered

    async def scenario():
        tab = await table_viewer(table, bob).connect()
        await tab.send(action="sit_out")
        await tab.until("I'm back")
        await tab.send(action="sit_in", big_blind="wait")
        await tab.until("Waiting for the big blind")
        await tab.send(action="top_up", amount="500", request_id=tab.request_id)
        await tab.until("table-error")
        assert tab.errors == ["You may add at most 50 chips (table maximum 200)."]
        await tab.send(action="leave")
        await tab.until('id="sit-form"')  # seat freed: the sit-down form is offered
        await tab.close()

    run(scenario)
    assert not Seat.objects.filter(player=bob).exists()
    assert bankroll_balance(bob) == 10_000
    assert_audit_clean()


def test_an_actions_frame_is_read_once(heads_up, monkeypatch):
    """The frame is read when it arrives (to note an action on time, RULES 6) and not again
    when its turn in the socket's line comes: the form is checked once."""
    from tables.realtime import consumers

    table, alice, _bob = heads_up
    start_hand(table)
    reads = []
    real_parse = consumers.parse_frame

    def counting(text, forms):
        reads.append(text)
        return real_parse(text, forms)

    monkeypatch.setattr(consumers, "parse_frame", counting)
    before = running_hand(table).sequence

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        version = await db(table_version, table)
        await alice_tab.send(action="call", sequence=str(await current_sequence(table)))
        await alice_tab.until_version(version + 1)
        await alice_tab.close()

    run(scenario)
    assert Hand.objects.get().sequence == before + 1
    assert len(reads) == 1
