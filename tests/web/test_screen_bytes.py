"""A table change sends what changed, once per audience: the public fragments once to the
table's group, a player's own only to that player's group, each only when it changed, and a
6-handed table's change stays under 10 KB on the wire to Redis."""

import pytest

from config.channel_serializer import CompressedMsgPackSerializer
from tables import services
from tables.presentation.deltas import Seen
from tables.presentation.screens import room_languages
from tables.realtime import listeners, notify

from ..support.tables import running_hand, sit

pytestmark = pytest.mark.django_db

KB = 1024


WIRE = CompressedMsgPackSerializer()
SCREEN_MESSAGES = ("table.changed", "player.changed")


class RecordingLayer:
    """Stands in for the channel layer: keeps every group message (the pub/sub layer
    publishes each once, serialized as ``WIRE``)."""

    def __init__(self):
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group, message):
        self.sent.append((group, message))

    def take(self) -> list[tuple[str, dict]]:
        sent, self.sent = self.sent, []
        return sent


@pytest.fixture
def layer(monkeypatch):
    recording = RecordingLayer()
    monkeypatch.setattr(notify, "get_channel_layer", lambda: recording)
    # Sockets read the table in every language of the room (the public fragments are
    # rendered in the languages some socket reads).
    monkeypatch.setattr(listeners, "listening_languages", lambda table_id: room_languages())
    return recording


def play_a_hand(table, players, layer, django_capture_on_commit_callbacks):
    """Every change of one 6-handed hand, called down to the river and checked there: the
    messages each change sent."""
    from tables.selectors.hands import rebuild

    by_seat = dict(enumerate(players, start=1))
    changes = []
    with django_capture_on_commit_callbacks(execute=True):
        services.start_hand_if_due(table_id=table.pk)
    changes.append(layer.take())
    while (hand := running_hand(table)) is not None:
        kind = "check" if rebuild(hand).legal_actions().can_check else "call"
        with django_capture_on_commit_callbacks(execute=True):
            services.act(
                table_id=table.pk, user=by_seat[hand.turn_seat], kind=kind, amount=None, sequence=hand.sequence
            )
        changes.append(layer.take())
    return changes


def test_a_six_handed_change_sends_each_audience_what_changed_under_ten_kilobytes(
    make_player, make_table, layer, django_capture_on_commit_callbacks
):
    table = make_table()
    players = [make_player() for _ in range(6)]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    layer.take()  # the seating changes
    changes = play_a_hand(table, players, layer, django_capture_on_commit_callbacks)
    # The screens' messages: the lobby's line, and the dealer's chat lines (which go to the
    # table's group as chat messages of their own), are not the table's screens.
    sizes = [
        sum(len(WIRE.serialize(message)) for group, message in change if message["type"] in SCREEN_MESSAGES)
        for change in changes
    ]
    print(f"bytes per change over a hand: {sizes}")
    assert len(changes) > 20
    assert sum(sizes) / len(sizes) <= 10 * KB, sizes
    # Every action in between; the deal (every player's new cards) and the settling action (the
    # showdown, whose public fragments go in every language of the room: 11-13 KB, with the deck)
    # may be more.
    assert max(sizes[1:-1]) <= 10 * KB, sizes
    assert sizes[-1] <= 16 * KB, sizes
    for change in changes:
        table_messages = [
            m for group, m in change if group == notify.table_group(table.pk) and m["type"] == "table.changed"
        ]
        assert len(table_messages) == 1  # the public fragments once, whatever the number of sockets
        for group, message in change:
            if group.startswith(notify.table_group(table.pk) + "-player-"):
                assert not set(message["fragments"]) & {"felt", "hand-log"}  # public parts travel once


def test_a_socket_rebuilds_every_fragment_from_the_digests_and_what_it_holds(
    make_player, make_table, layer, django_capture_on_commit_callbacks, monkeypatch
):
    """Replaying the messages as one seated player's socket gets them gives, at every version,
    exactly the screen rendered for that player (in their language: the public message
    carries every language of the room)."""
    from django.conf import settings
    from django.utils import timezone

    from tables.presentation.screens import screen_for
    from tables.selectors.hands import rebuild
    from tables.selectors.table_state import load_table_state

    rendered = []
    render_screens = notify.screens
    monkeypatch.setattr(notify, "screens", lambda *args: rendered.append(render_screens(*args)) or rendered[-1])
    table = make_table()
    players = [make_player() for _ in range(6)]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    layer.take()
    me = players[2]
    seen = Seen()
    screens, own = screen_for(load_table_state(table.pk), me, timezone.now())
    language = settings.LANGUAGE_CODE
    seen.add({**screens.public[language], **own})  # the socket's snapshot on connect
    by_seat = dict(enumerate(players, start=1))
    with django_capture_on_commit_callbacks(execute=True):
        services.start_hand_if_due(table_id=table.pk)
    versions = 0
    while True:
        messages = {group: m for group, m in layer.take() if m["type"] in SCREEN_MESSAGES}
        public = messages[notify.table_group(table.pk)]
        mine = messages[notify.player_group(table.pk, me.pk)]
        assert public["version"] == mine["version"] == rendered[-1].version
        shown = {
            **seen.rebuild(public["fragments"][language], public["digests"][language]),
            **seen.rebuild(mine["fragments"], mine["digests"]),
        }
        assert mine["language"] == language
        assert shown == {**rendered[-1].public[language], **rendered[-1].players[me.pk]}
        versions += 1
        if (hand := running_hand(table)) is None:
            break
        kind = "check" if rebuild(hand).legal_actions().can_check else "call"
        with django_capture_on_commit_callbacks(execute=True):
            services.act(
                table_id=table.pk, user=by_seat[hand.turn_seat], kind=kind, amount=None, sequence=hand.sequence
            )
    assert versions > 20


def test_a_socket_missing_a_fragment_says_so():
    """A digest the socket never saw (it missed a message) is not guessed: the socket reads its snapshot."""
    seen = Seen()
    seen.add({"felt": "<section id=felt>1</section>"})
    assert seen.rebuild({}, {"felt": "0123456789abcdef"}) is None


def test_a_content_seen_again_is_kept_as_the_most_recent():
    """What a socket saw is kept by recency: a content shown again (controls that empty again)
    outlives one shown once since."""
    from tables.presentation.deltas import digest

    seen = Seen(size=2)
    seen.add({"controls": "<div>empty</div>"})
    seen.add({"felt": "<div>flop</div>"})
    seen.add({"controls": "<div>empty</div>"})  # again: the most recent
    seen.add({"felt": "<div>turn</div>"})  # the flop's felt is the least recent: it goes
    assert seen.rebuild({}, {"controls": digest("<div>empty</div>")}) == {"controls": "<div>empty</div>"}
    assert seen.rebuild({}, {"felt": digest("<div>flop</div>")}) is None


def test_a_message_read_by_several_sockets_of_a_process_is_unpacked_once(monkeypatch):
    """channels-redis deserializes a group's message for each socket of the group: the bytes
    of the last messages are kept, so a table's change is unpacked once per process."""
    from config import channel_serializer

    serializer = CompressedMsgPackSerializer()
    unpacked = []
    real_unpack = channel_serializer.msgpack.unpackb

    def counting(body):
        unpacked.append(body)
        return real_unpack(body)

    monkeypatch.setattr(channel_serializer.msgpack, "unpackb", counting)
    message = {"type": "table.changed", "version": 7, "fragments": {"en": {"felt": "<div>" + "x" * 2000}}}
    wire = serializer.as_bytes(message)
    readings = [serializer.from_bytes(bytes(bytearray(wire))) for _ in range(6)]  # six sockets, six copies
    assert all(reading == message for reading in readings)
    assert len(unpacked) == 1
    assert serializer.from_bytes(serializer.as_bytes({**message, "version": 8}))["version"] == 8
    assert len(unpacked) == 2
