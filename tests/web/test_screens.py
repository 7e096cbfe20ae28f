"""Screens are rendered once per change and routed: public fragments to every socket, a player's
own only to that player's group; each viewer sees the table from their own seat."""

import re

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.presentation.deltas import Seen, digests
from tables.presentation.fragments import felt_view_style
from tables.realtime import sockets
from tables.realtime.notify import player_group, table_group
from tables.realtime.screen_updates import Fragments, ScreenUpdates, Snapshot

from ..support.decks import SEAT_1_CARDS, SEAT_2_CARDS
from ..support.sockets import db, felt_version, leaks, table_viewer
from ..support.tables import act, start_hand, table_version

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_table_group_carries_no_hole_card_and_a_player_group_only_its_players(heads_up, channel_layer):
    """Private stays private on the way, not only on the socket: what the channel layer carries."""
    table, alice, bob = heads_up

    async def scenario():
        layer = get_channel_layer()
        listeners = {}
        for name, group in [
            ("table", table_group(table.pk)),
            ("alice", player_group(table.pk, alice.pk)),
            ("bob", player_group(table.pk, bob.pk)),
        ]:
            listeners[name] = await layer.new_channel()
            await layer.group_add(group, listeners[name])
        # A socket of the table reads it in each language of the room (the public fragments
        # are rendered in the languages some socket reads).
        reading = [sockets.table_language_key(table.pk, language) for language in ("en", "es")]
        sockets.counts.opened(reading)
        try:
            await db(start_hand, table)
        finally:
            sockets.counts.closed(reading)
        got = {name: await layer.receive(channel) for name, channel in listeners.items()}
        # The public fragments, in every language a socket reads.
        public = "".join(html for fragments in got["table"]["fragments"].values() for html in fragments.values())
        assert set(got["table"]["fragments"]) == {"en", "es"}
        assert got["table"]["type"] == "table.changed" and set(got["table"]["players"]) == {alice.pk, bob.pk}
        assert "Dealt to you" not in public and leaks([public], SEAT_1_CARDS + SEAT_2_CARDS) == []
        for name, mine, theirs in [("alice", SEAT_1_CARDS, SEAT_2_CARDS), ("bob", SEAT_2_CARDS, SEAT_1_CARDS)]:
            own = "".join(got[name]["fragments"].values())
            assert got[name]["type"] == "player.changed" and got[name]["version"] == got["table"]["version"]
            assert leaks([own], mine) and leaks([own], theirs) == []

    async_to_sync(scenario)()


def _style_for_seat(frame: str, seat: int) -> str:
    return re.search(rf"#felt \.seat\[data-seat=\"{seat}\"\] \{{ ([^}}]*)\}}", frame).group(1)


def test_each_player_sees_their_own_seat_at_the_bottom_and_a_spectator_seat_one(heads_up, channel_layer):
    table, alice, bob = heads_up
    bottom = "--x: 50.00%"

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        bob_tab = await table_viewer(table, bob).connect()
        spectator = await table_viewer(table).connect()
        await db(start_hand, table)
        dealt = await db(table_version, table)
        for tab in (alice_tab, bob_tab, spectator):
            await tab.until_version(dealt)
        seen = {tab: "".join(tab.frames) for tab in (alice_tab, bob_tab, spectator)}
        assert _style_for_seat(seen[alice_tab], 1).startswith(bottom)
        assert _style_for_seat(seen[bob_tab], 2).startswith(bottom)
        assert _style_for_seat(seen[spectator], 1).startswith(bottom)
        assert not _style_for_seat(seen[bob_tab], 1).startswith(bottom)
        # Each one's own seat box is marked as theirs, and only in their frames.
        assert 'id="seat-2" class="seat mine' in seen[bob_tab] and "seat mine" not in seen[alice_tab].replace(
            'id="seat-1" class="seat mine', ""
        )
        assert "seat mine" not in seen[spectator]
        for tab in (alice_tab, bob_tab, spectator):
            await tab.close()

    async_to_sync(scenario)()


def test_a_watcher_gets_new_seat_forms_when_a_seat_frees_up(heads_up, make_player, make_table, channel_layer):
    table, alice, bob = heads_up
    carol = make_player("carol")

    async def scenario():
        watcher = await table_viewer(table, carol).connect()
        assert '<option value="2">' not in watcher.frames[0]
        alice_tab = await table_viewer(table, alice).connect()
        bob_tab = await table_viewer(table, bob).connect()
        await bob_tab.send(action="leave")
        frame = await watcher.until('<option value="2">')
        assert 'id="sit-form"' in frame and "bankroll 10,000" in frame
        # And bob, now without a seat, is offered the seat forms too.
        assert 'id="sit-form"' in await bob_tab.until('id="sit-form"')
        for tab in (watcher, alice_tab, bob_tab):
            await tab.close()

    async_to_sync(scenario)()


@pytest.mark.parametrize(("seat_count", "bottom"), [(2, 2), (6, 3), (10, 10)])
def test_the_felt_seen_from_a_seat_puts_it_at_six_o_clock(seat_count, bottom):
    style = felt_view_style(seat_count, bottom, False)
    assert _style_for_seat(style, bottom).startswith("--x: 50.00%")
    assert style.count("#felt .seat[") == seat_count
    assert "#felt .sit-here { display: none; }" in style  # no seat form: no "Sit here" buttons
    assert "#felt .seat-free { display: none; }" in felt_view_style(seat_count, bottom, True)


def test_the_languages_read_in_other_processes_are_asked_again_only_when_a_listener_joins(monkeypatch):
    """A change renders the public fragments in the languages some socket reads; whether a
    socket of another server process reads one that no socket here reads is asked of the cache
    once, and again only when a socket of the table opens somewhere as a new listener (its
    notice), or ``ELSEWHERE_SECONDS`` later: not on every change."""
    from tables.realtime import listeners

    elsewhere = {"es": 0}
    asked = []

    def totals(keys):
        asked.append(keys)
        return {key: elsewhere.get(key[2], 0) for key in keys}

    monkeypatch.setattr(sockets.counts, "totals", totals)
    monkeypatch.setattr(listeners, "_elsewhere", {})
    here = [sockets.table_language_key(991, "en")]
    sockets.counts.opened(here)
    try:
        assert listeners.listening_languages(991) == ["en"]
        elsewhere["es"] = 1  # a Spanish watcher opens in another process...
        assert listeners.listening_languages(991) == ["en"]  # (its notice not here yet)
        assert len(asked) == 1
        listeners.listeners_joined(991)  # ...and its notice arrives
        assert listeners.listening_languages(991) == ["en", "es"]
        assert listeners.listening_languages(991) == ["en", "es"]
        assert len(asked) == 2
        listeners.listeners_joined(992)  # another table's notice changes nothing here
        assert listeners.listening_languages(991) == ["en", "es"]
        assert len(asked) == 2
        monkeypatch.setattr(listeners, "ELSEWHERE_SECONDS", 0.0)  # kept at most that long
        elsewhere["es"] = 0
        assert listeners.listening_languages(991) == ["en"]
        assert len(asked) == 3
    finally:
        sockets.counts.closed(here)
    # A process with no socket of the table (the celery worker) hears no notice: it keeps the
    # answer UNNOTIFIED_SECONDS only.
    monkeypatch.setattr(listeners, "ELSEWHERE_SECONDS", 30.0)
    elsewhere["en"] = 1
    assert listeners.listening_languages(993) == ["en"]
    assert listeners.listening_languages(993) == ["en"]
    assert len(asked) == 4
    monkeypatch.setattr(listeners, "UNNOTIFIED_SECONDS", 0.0)
    elsewhere["es"] = 1
    assert listeners.listening_languages(993) == ["en", "es"]
    assert len(asked) == 5


@pytest.mark.parametrize("channel_layer", ["redis"], indirect=True)
@pytest.mark.parametrize("listened_elsewhere", [False, True])
def test_a_group_only_this_process_listens_to_is_handed_over_without_redis(
    heads_up, channel_layer, listened_elsewhere, monkeypatch
):
    """The sockets of a table are in one process (the proxy hashes by table): its change is
    handed to them there, not packed, published, read back and unpacked, and a seated
    player's socket gets both halves in one message. A group another process listens to too
    (a connection of its own subscribed in Redis) is published, and that process gets it, as
    before."""
    import redis.asyncio as aioredis
    from django.conf import settings

    table, alice, _bob = heads_up
    layer = get_channel_layer()
    packed = []
    real_serialize = layer.serialize
    screen_types = ("table.changed", "player.changed")  # (the lobby's line and the chat are sent as before)

    def counting(message):
        if message["type"] in screen_types:
            packed.append(message["type"])
        return real_serialize(message)

    monkeypatch.setattr(layer, "serialize", counting)

    async def scenario():
        here = await layer.new_channel()
        await layer.group_add(table_group(table.pk), here)
        await layer.group_add(player_group(table.pk, alice.pk), here)
        other_process = aioredis.from_url(settings.REDIS_URL)
        listening = other_process.pubsub()
        group_channel = layer._get_layer()._get_group_channel_name(table_group(table.pk))
        if listened_elsewhere:
            await listening.subscribe(group_channel)
            await listening.get_message(timeout=1)  # the subscription's confirmation
        sockets.counts.opened([sockets.table_language_key(table.pk, "en")])
        try:
            await db(start_hand, table)
        finally:
            sockets.counts.closed([sockets.table_language_key(table.pk, "en")])
        if listened_elsewhere:  # the table's half read back from Redis, the player's handed over
            got = [await layer.receive(here), await layer.receive(here)]
            assert sorted(message["type"] for message in got) == ["player.changed", "table.changed"]
        else:  # both halves handed over: one message, one dispatch
            both = await layer.receive(here)
            assert both["type"] == "screen.changed"
            assert (both["table"]["type"], both["player"]["type"]) == ("table.changed", "player.changed")
            assert both["table"]["version"] == both["player"]["version"]
        if listened_elsewhere:
            elsewhere = await listening.get_message(ignore_subscribe_messages=True, timeout=2)
            assert elsewhere is not None and elsewhere["channel"].decode() == group_channel
            assert packed == ["table.changed"]  # the player's group: only here, handed over
        else:
            assert packed == []
        await listening.aclose()
        await other_process.aclose()

    async_to_sync(scenario)()


@pytest.mark.parametrize("channel_layer", ["redis"], indirect=True)
def test_who_listens_elsewhere_is_asked_of_redis_once_and_again_when_a_listener_joins(
    heads_up, channel_layer, monkeypatch
):
    """Whether another process subscribes to a table's groups is asked of Redis (``PUBSUB
    NUMSUB``) on the table's first change and kept: the next changes are handed over here without
    asking, at once (no task on the way). A socket of the table opening in another process says so to every process with a
    socket of the table (a ``listeners.joined`` notice to the table's group): the next change asks
    again, and that process gets it."""
    import redis.asyncio as aioredis
    from django.conf import settings
    from redis.asyncio.client import Redis

    from tables.realtime import listeners, publishing

    table, alice, _bob = heads_up
    layer = get_channel_layer()
    monkeypatch.setattr(listeners, "_elsewhere", {})
    asked = []
    real_numsub = Redis.pubsub_numsub

    def numsub(self, *channels):
        asked.append(channels)
        return real_numsub(self, *channels)

    monkeypatch.setattr(Redis, "pubsub_numsub", numsub)
    sent_through_a_task = []
    real_send_all = publishing.send_all

    async def send_all(layer, table_id, messages):
        if any(message["type"] == "table.changed" for _group, message in messages):  # screens, not a chat line
            sent_through_a_task.append(table_id)
        await real_send_all(layer, table_id, messages)

    monkeypatch.setattr(publishing, "send_all", send_all)

    async def scenario():
        here = await layer.new_channel()
        await layer.group_add(table_group(table.pk), here)
        await layer.group_add(player_group(table.pk, alice.pk), here)
        listening = sockets.table_language_key(table.pk, "en")
        sockets.counts.opened([listening])
        other_process = aioredis.from_url(settings.REDIS_URL)
        elsewhere = other_process.pubsub()
        group_channel = layer._get_layer()._get_group_channel_name(table_group(table.pk))
        try:
            await db(start_hand, table)
            assert (await _screen(layer, here))["type"] == "screen.changed"
            await db(_act, table)
            assert (await _screen(layer, here))["type"] == "screen.changed"
            assert len(asked) == 1  # the second change asked nothing...
            assert len(sent_through_a_task) == 1  # ...and was handed over at once, without a task
            await elsewhere.subscribe(group_channel)  # a socket of the table opens in another process...
            await elsewhere.get_message(timeout=1)
            await db(_act, table)
            assert (await _screen(layer, here))["type"] == "screen.changed"  # (its notice not here yet)
            assert len(asked) == 1
            await layer.group_send(table_group(table.pk), {"type": "listeners.joined", "table_id": table.pk})
            notice = await _screen(layer, here)  # what the table's sockets here get: each forgets
            assert notice == {"type": "listeners.joined", "table_id": table.pk}
            listeners.listeners_joined(notice["table_id"])
            await db(_act, table)
            assert len(asked) == 2 and len(sent_through_a_task) == 2
            got = [await _screen(layer, here), await _screen(layer, here)]  # the table's half read back from Redis
            assert sorted(message["type"] for message in got) == ["player.changed", "table.changed"]
            published = await elsewhere.get_message(ignore_subscribe_messages=True, timeout=2)
            assert published is not None and published["channel"].decode() == group_channel
        finally:
            sockets.counts.closed([listening])
            await elsewhere.aclose()
            await other_process.aclose()

    async_to_sync(scenario)()


async def _screen(layer, channel):
    """The channel's next message but the dealer's chat lines."""
    while (message := await layer.receive(channel))["type"] == "chat.message":
        pass
    return message


def _act(table):
    """The player whose turn it is calls (or checks)."""
    from tables import services
    from tables.engine.errors import IllegalAction
    from tables.models import Hand

    hand = Hand.objects.filter(table=table).order_by("-number").first()
    seat = table.seats.get(number=hand.turn_seat)
    try:
        services.act(table_id=table.pk, user=seat.player, kind="call", amount=None, sequence=hand.sequence)
    except IllegalAction:  # nothing to call
        services.act(table_id=table.pk, user=seat.player, kind="check", amount=None, sequence=hand.sequence)


def test_a_socket_opening_as_a_new_listener_tells_the_tables_other_processes(heads_up, channel_layer):
    """The first socket of a table in a process in its language, or of its player, sends the
    ``listeners.joined`` notice to the table's group (what other processes listen to is asked
    again there); one more socket of the same kind does not."""
    table, alice, _bob = heads_up
    layer = get_channel_layer()

    async def scenario():
        notices = await layer.new_channel()
        await layer.group_add(table_group(table.pk), notices)
        watcher = await table_viewer(table).connect()
        assert await layer.receive(notices) == {"type": "listeners.joined", "table_id": table.pk}
        second_watcher = await table_viewer(table).connect()  # no new listener: no notice
        alice_tab = await table_viewer(table, alice).connect()  # alice's own group: a new listener
        assert await layer.receive(notices) == {"type": "listeners.joined", "table_id": table.pk}
        await db(start_hand, table)
        assert (await layer.receive(notices))["type"] == "table.changed"  # no notice between
        for tab in (watcher, second_watcher, alice_tab):
            await tab.close()

    async_to_sync(scenario)()


@pytest.mark.parametrize("channel_layer", ["redis"], indirect=True)
def test_a_change_only_this_process_listens_to_goes_straight_into_its_sockets_inboxes(
    heads_up, channel_layer, monkeypatch
):
    """A socket's messages wait in one inbox (its client's frames, the channel layer's, this
    process's): a change handed over here goes straight into the inboxes of the table's sockets,
    not through the channel layer's queue and receive."""
    from config import channel_serializer

    table, alice, _bob = heads_up
    through_the_layer = []
    real_unpacked = channel_serializer.unpacked

    def unpacked(message):
        through_the_layer.append(message["type"])
        return real_unpacked(message)

    monkeypatch.setattr(channel_serializer, "unpacked", unpacked)

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        watcher = await table_viewer(table).connect()
        await db(start_hand, table)
        dealt = await db(table_version, table)
        for tab in (alice_tab, watcher):
            await tab.until_version(dealt)
        assert leaks(alice_tab.frames, SEAT_1_CARDS) and leaks(watcher.frames, SEAT_1_CARDS) == []
        assert "screen.changed" not in through_the_layer and "table.changed" not in through_the_layer
        for tab in (alice_tab, watcher):
            await tab.close()

    async_to_sync(scenario)()


async def _dealt_and_told(table, tabs) -> None:
    """Deal the table's first hand and wait until every tab shows it and its dealer's line (the
    chat comes through the channel layer, in each socket's turn): the change a test then makes
    reaches sockets with nothing in hand."""
    await db(start_hand, table)
    dealt = await db(table_version, table)
    for tab in tabs:
        await tab.until_version(dealt)
        if not any("chat-lines" in frame for frame in tab.frames):
            await tab.until("chat-lines")


@pytest.mark.parametrize("channel_layer", ["redis"], indirect=True)
def test_a_change_handed_to_an_idle_socket_is_applied_within_the_hand_over(heads_up, channel_layer, monkeypatch):
    """A socket with nothing in hand takes a change handed over here at once: its frame goes
    straight to the connection in the hand-over's own step, not in a turn of the socket's loop,
    and it is the frame that turn would send (the hole cards only to their owner)."""
    from tables.realtime.consumers import TableConsumer

    table, alice, _bob = heads_up
    in_their_turn = []
    real_dispatch = TableConsumer.dispatch

    async def dispatch(self, message):
        if message["type"] in ("screen.changed", "table.changed", "player.changed"):
            in_their_turn.append((self.viewer_id, message["type"]))
        await real_dispatch(self, message)

    monkeypatch.setattr(TableConsumer, "dispatch", dispatch)

    async def scenario():
        alice_tab = await table_viewer(table, alice, straight=True).connect()
        watcher = await table_viewer(table, straight=True).connect()
        in_turn = await table_viewer(table).connect()  # no straight way to its connection: in its turn
        tabs = (alice_tab, watcher, in_turn)
        await _dealt_and_told(table, tabs)
        assert leaks(alice_tab.frames, SEAT_1_CARDS) and leaks(watcher.frames, SEAT_1_CARDS) == []
        in_their_turn.clear()
        before = (alice_tab.straight_frames, watcher.straight_frames)
        await db(act, table, alice, "call")  # the button acts first heads-up
        called = await db(table_version, table)
        for tab in tabs:
            await tab.until_version(called)
        assert alice_tab.straight_frames > before[0] and watcher.straight_frames > before[1]
        assert in_their_turn == [(None, "table.changed")]  # only the socket without the straight way
        assert watcher.frames[-1] == in_turn.frames[-1]
        assert leaks(watcher.frames, SEAT_1_CARDS) == []
        for tab in tabs:
            await tab.close()

    async_to_sync(scenario)()


@pytest.mark.parametrize("channel_layer", ["redis"], indirect=True)
def test_a_change_that_needs_a_snapshot_is_left_to_the_sockets_turn(heads_up, channel_layer):
    """A socket that cannot show a change from what it holds (here: the seat forms it shows
    are not those the change's watchers get) reads its snapshot in its own turn (it waits on
    the database): the hand-over only puts the snapshot in its line."""
    from operations import metrics
    from tables.realtime import inboxes

    table, alice, _bob = heads_up
    seat_forms = metrics.SNAPSHOTS.labels("seat_forms")

    async def scenario():
        watcher = await table_viewer(table, straight=True).connect()
        (consumer,) = [socket for socket in inboxes.here.values() if getattr(socket, "table_id", None) == table.pk]
        await _dealt_and_told(table, (watcher,))
        consumer.spectator_key = ("other seat forms",)
        frames_before, snapshots_before = len(watcher.frames), seat_forms._value.get()
        await db(act, table, alice, "call")
        await watcher.until_version(await db(table_version, table))
        assert seat_forms._value.get() == snapshots_before + 1
        screens = [frame for frame in watcher.frames[frames_before:] if felt_version(frame) is not None]
        assert len(screens) == 1  # the snapshot's frame, none of the change before it
        assert consumer.spectator_key != ("other seat forms",)
        await watcher.close()

    async_to_sync(scenario)()


class _Screen(ScreenUpdates):
    """A seated player's socket's screen, without a socket: what its steps say to send."""

    def __init__(self, language: str = "en"):
        self.language, self.viewer_id, self.spectator_key = language, 7, ["seat forms"]
        self.sent, self.sent_version, self.seen, self.halves = {}, -1, Seen(), {}


def _both_halves(version: int, public: dict, own: dict, before: tuple[dict, dict], language: str = "en") -> dict:
    """A change as the publisher sends it: what changed since its last message, every digest."""
    changed = {key: html for key, html in public.items() if before[0].get(key) != html}
    own_changed = {key: html for key, html in own.items() if before[1].get(key) != html}
    table = {"type": "table.changed", "version": version, "fragments": {"en": changed},
             "digests": {"en": digests(public)}, "players": [7], "spectator_key": []}  # fmt: skip
    player = {"type": "player.changed", "version": version, "language": language, "fragments": own_changed,
              "digests": digests(own)}  # fmt: skip
    return {"type": "screen.changed", "table": table, "player": player}


def test_both_halves_of_a_change_in_one_message_make_the_screen_the_halves_one_by_one_make():
    """A seated player's socket given both halves of a change at once steps them as one: the
    same screen as the table's half then the player's (and a language not the socket's, or a
    change already shown, the same answer)."""
    screens = [
        ({"board": "A", "pot": "1"}, {"controls": "c1", "cards": "xx"}),
        ({"board": "A", "pot": "2"}, {"controls": "c2", "cards": "xx"}),
        ({"board": "B", "pot": "2"}, {"controls": "c1", "cards": "xx"}),  # back to an earlier content
        ({"board": "B", "pot": "3"}, {"controls": "c1", "cards": "yy"}),
    ]
    together, apart = _Screen(), _Screen()
    before: tuple[dict, dict] = ({}, {})
    for version, (public, own) in enumerate(screens, start=1):
        message = _both_halves(version, public, own, before)
        before = (public, own)
        at_once = [step for step in together.steps(message) if step is not None]
        one_by_one = [step for half in ("table", "player") if (step := apart.step(message[half])) is not None]
        assert at_once == one_by_one == [Fragments(version, {**public, **own})]
        together.sent_version = apart.sent_version = version
        assert list(together.steps(message)) == [None] and together.spectator_key is None
    spanish = _both_halves(9, *screens[0], before, language="es")
    assert list(together.steps(spanish)) == [Snapshot("language")]
