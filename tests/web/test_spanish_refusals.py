"""Every refusal a player can meet at a table arrives in their language: each one triggered
from a Spanish player's socket (chat, mutes, waiting list, seat options, showing, the deck
contributions), asserted in Spanish, with the English gone; numbers grouped as Spanish writes them."""

import pytest
from asgiref.sync import async_to_sync
from django.test import override_settings
from django.utils import translation
from django.utils.translation import gettext

from tables.models import Table
from tables.services import contributions
from tables.services.errors import TableError

from ..support.sockets import table_viewer
from ..support.tables import act, start_hand

pytestmark = pytest.mark.django_db(transaction=True)

HEX = "ab" * 32


def spanish(message: str, **params) -> str:
    with translation.override("es"):
        translated = gettext(message)
    assert translated != message, f"no Spanish for {message!r}"
    return translated % params if params else translated


def _spanish_player(player):
    player.language = "es"
    player.save(update_fields=["language"])
    return player


def _update(table, **fields):
    Table.objects.filter(pk=table.pk).update(**fields)


def _staff_mute(player):
    player.chat_muted = True
    player.save(update_fields=["chat_muted"])


def _fold_a_hand(table, alice, bob):
    start_hand(table)
    act(table, alice, "fold")  # alice (button, small blind) folds: bob wins without a showdown


def _frames_from(viewer_of, frames: list[dict], expected: str, english: str):
    async def scenario():
        tab = await viewer_of().connect()
        for frame in frames:
            await tab.send(**frame)
        try:
            text = await tab.until(expected)
        except TimeoutError:
            raise AssertionError(f"{expected!r} never came: {tab.errors}") from None
        assert english not in text
        await tab.close()

    async_to_sync(scenario)()


CASES = {
    # case: (who sends, setup, frames, English message, its parameters)
    "chat-log-in": ("visitor", None, [{"action": "chat", "text": "hola"}], "Log in to chat.", {}),
    "chat-staff-muted": (
        "alice", lambda t, a, b, c: _staff_mute(a),
        [{"action": "chat", "text": "hola"}], "The staff have muted you in chat.", {},
    ),
    "chat-empty": ("alice", None, [{"action": "chat", "text": "\u200b"}], "Type a message first.", {}),
    "chat-rate": (
        "alice", None, [{"action": "chat", "text": "uno"}, {"action": "chat", "text": "dos"}],
        "You are sending messages too fast: wait a few seconds.", {},
    ),
    # Every refused mute reads the same, whoever it names (it tells nobody which ids exist).
    "mute-unknown": (
        "alice", None, [{"action": "mute", "player": "987654"}],
        "You can mute only someone seated or chatting at this table.", {},
    ),
    "mute-self": (
        "alice", None, [{"action": "mute", "player": "{alice}"}],
        "You can mute only someone seated or chatting at this table.", {},
    ),
    "waiting-seated": (
        "alice", lambda t, a, b, c: _update(t, seat_count=2), [{"action": "join_waiting_list"}],
        "You already have a seat at this table.", {},
    ),
    "waiting-seat-free": ("carol", None, [{"action": "join_waiting_list"}], "A seat is free: take it.", {}),
    "waiting-twice": (
        "carol", lambda t, a, b, c: _update(t, seat_count=2),
        [{"action": "join_waiting_list"}, {"action": "join_waiting_list"}], "You are already on the waiting list.", {},
    ),
    "waiting-not-on-it": ("carol", None, [{"action": "leave_waiting_list"}], "You are not on the waiting list.", {}),
    "waiting-closed": (
        "carol", lambda t, a, b, c: _update(t, seat_count=2, closing=True), [{"action": "join_waiting_list"}],
        "This table is closed.", {},
    ),
    "options-no-seat": ("carol", None, [{"action": "seat_options"}], "You have no seat at this table.", {}),
    "options-top-up-range": (
        "alice", lambda t, a, b, c: _update(t, min_buy_in=1000, max_buy_in=20000),
        [{"action": "seat_options", "auto_top_up": "on", "auto_top_up_to": "50"}],
        "Auto top-up goes back to %(low)s to %(high)s chips.", {"low": "1.000", "high": "20.000"},
    ),
    "show-before-the-hand": ("alice", None, [{"action": "show_cards"}], "Cards are shown this way only after the hand.", {}),
    "show-not-played": (
        "carol", lambda t, a, b, c: (_update(t, seat_count=6), _fold_a_hand(t, a, b)), [{"action": "show_cards"}],
        "You did not play the last hand.", {},
    ),
    "contribute-no-seat": (
        "carol", None, [{"action": "contribute", "seed_commitment": HEX, "value": HEX}],
        "You have no seat at this table.", {},
    ),
    "contribute-dealt": (
        "alice", None, [{"action": "contribute", "seed_commitment": HEX, "value": HEX}],
        "That hand has already been dealt: your browser will send for the next one.", {},
    ),
    "contribute-twice": (
        "alice", None,
        [{"action": "contribute", "seed_commitment": "{commitment}", "value": HEX},
         {"action": "contribute", "seed_commitment": "{commitment}", "value": HEX}],
        "Your contribution to the next hand is already in.", {},
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES)
@override_settings(CHAT_RATE="1/h")
def test_every_table_refusal_reaches_a_spanish_player_in_spanish(case, heads_up, make_player):
    table, alice, bob = heads_up
    carol = make_player("carol")
    who, setup, frames, english, params = CASES[case]
    for player in (alice, bob, carol):
        _spanish_player(player)
    if setup:
        setup(table, alice, bob, carol)
    table.refresh_from_db()
    values = {"alice": str(alice.pk), "commitment": table.next_seed_commitment}
    frames = [{k: v.format(**values) for k, v in frame.items()} for frame in frames]
    user = {"alice": alice, "carol": carol, "visitor": None}[who]

    def viewer():
        tab = table_viewer(table, user)
        if user is None:  # a visitor whose browser asks for Spanish
            tab.communicator.scope["headers"] = [(b"accept-language", b"es-ES,es;q=0.9")]
        return tab

    expected = spanish(english, **params)
    _frames_from(viewer, frames, expected, english % params if params else english)


def test_an_engine_refusal_of_showing_arrives_translated(heads_up):
    """showing.py wrapped the engine's refusal in str(): the player read its English."""
    table, alice, bob = heads_up
    _spanish_player(alice)
    _fold_a_hand(table, alice, bob)  # alice folded: only bob, the winner, may show
    expected = spanish("Only the winner nobody called may show their cards")
    _frames_from(
        lambda: table_viewer(table, alice), [{"action": "show_cards"}], expected, "Only the winner nobody called"
    )


def test_refusals_no_socket_can_send_are_translated_too(heads_up):
    """The form refuses a malformed contribution before the service; the service's own
    refusal is still in the player's language."""
    table, alice, _bob = heads_up
    with translation.override("es"), pytest.raises(TableError) as refused:
        contributions.contribute(user=alice, table_id=table.pk, seed_commitment=HEX, value="xyz")
    assert str(refused.value) == spanish("A contribution is 64 hexadecimal digits (32 bytes).")


@override_settings(CHAT_MAX_CHARS=1000)
def test_the_chat_length_refusal_groups_its_number_as_spanish_does(heads_up):
    table, alice, _bob = heads_up
    _spanish_player(alice)
    with translation.override("es"):
        expected = translation.ngettext(
            "A message is at most %(count)s character.", "A message is at most %(count)s characters.", 1000
        ) % {"count": "1.000"}
    assert expected == "Un mensaje tiene como máximo 1.000 caracteres."
    _frames_from(lambda: table_viewer(table, alice), [{"action": "chat", "text": "x" * 1001}], expected, "characters")


def test_two_sockets_in_two_languages_each_keep_their_own(heads_up):
    """A socket makes its viewer's language active once, in its own task: a Spanish and an
    English player's sockets in one process, their refusals interleaved, each reads its own."""
    table, alice, bob = heads_up
    _spanish_player(alice)
    english = "Type a message first."

    async def scenario():
        spanish_tab = await table_viewer(table, alice).connect()
        english_tab = await table_viewer(table, bob).connect()
        for _ in range(2):
            await spanish_tab.send(action="chat", text="\u200b")
            assert english not in await spanish_tab.until(spanish(english))
            await english_tab.send(action="chat", text="\u200b")
            assert spanish(english) not in await english_tab.until(english)
        await spanish_tab.close()
        await english_tab.close()

    async_to_sync(scenario)()
