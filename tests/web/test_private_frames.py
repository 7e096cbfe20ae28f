"""No hole card reaches anyone else before it is shown: every frame of whole hands, three clients.

Cards are looked for in every form a frame could carry them: the engine's
text ("Kd"), what the page prints ("K♦") and what a screen reader says
("King of diamonds").
"""

import asyncio

import pytest
from asgiref.sync import async_to_sync

from ..support.decks import SEAT_1_CARDS, SEAT_2_CARDS
from ..support.sockets import current_sequence, db, leak_context, leaks, table_viewer, visible_text
from ..support.tables import start_hand, table_version

pytestmark = pytest.mark.django_db(transaction=True)


async def play(table, everyone, tab, action, amount=None):
    """``tab`` sends one action frame; then every client receives every frame of the change it made."""
    fields = {"action": action, "sequence": str(await current_sequence(table))}
    if amount is not None:
        fields["amount"] = str(amount)
    before = await db(table_version, table)
    await tab.send(**fields)
    await tab.until_version(before + 1)  # applied
    await _everyone_is_shown_the_table_as_it_is(table, everyone)


async def _everyone_is_shown_the_table_as_it_is(table, everyone):
    version = await db(table_version, table)
    await asyncio.gather(*(client.until_version(version) for client in everyone))


def test_through_a_showdown_hole_cards_reach_only_their_owner_until_shown(heads_up, make_player, channel_layer):
    table, alice, bob = heads_up
    carol = make_player("carol")  # logged in, watching without a seat

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        bob_tab = await table_viewer(table, bob).connect()
        spectator = await table_viewer(table).connect()
        watcher = await table_viewer(table, carol).connect()
        everyone = (alice_tab, bob_tab, spectator, watcher)
        await _start(table, everyone)
        # Pre-flop alice (button, small blind) raises, bob calls; flop bet and call; turn and river checked.
        for tab, action, amount in [
            (alice_tab, "raise", 6), (bob_tab, "call", None),
            (bob_tab, "check", None), (alice_tab, "bet", 4), (bob_tab, "call", None),
            (bob_tab, "check", None), (alice_tab, "check", None),
            (bob_tab, "check", None),
        ]:  # fmt: skip
            await play(table, everyone, tab, action, amount)
        before_showdown = {client: len(client.frames) for client in everyone}
        await play(table, everyone, alice_tab, "check")  # the last action: both hands are shown

        assert leaks(alice_tab.frames, SEAT_1_CARDS)  # the check can see cards at all
        for client, _mine, theirs in [(alice_tab, SEAT_1_CARDS, SEAT_2_CARDS), (bob_tab, SEAT_2_CARDS, SEAT_1_CARDS)]:
            assert leaks(client.frames[before_showdown[client] :], theirs)  # shown at showdown...
            assert leaks(client.frames[: before_showdown[client]], theirs) == []  # ...and not before
        for onlooker in (spectator, watcher):
            assert leaks(onlooker.frames[: before_showdown[onlooker]], SEAT_1_CARDS + SEAT_2_CARDS) == []
        showdown = "".join(spectator.frames[before_showdown[spectator] :])
        assert "Kings full of sevens" in showdown and "winning card" in showdown
        # Each player's hand in words (RULES 5.2) reaches only that player, from the flop on.
        assert "hand-readout" in "".join(alice_tab.frames) and "hand-readout" in "".join(bob_tab.frames)
        for client, mine, theirs in [
            (alice_tab, "Kings full of sevens", "Two pair, aces and sevens"),
            (bob_tab, "Two pair, aces and sevens", "Kings full of sevens"),
        ]:
            seen = visible_text("".join(client.frames[: before_showdown[client]]))
            assert f"Your hand: {mine}" in seen and theirs not in seen
        for onlooker in (spectator, watcher):
            assert "hand-readout" not in "".join(onlooker.frames) and "Your hand" not in "".join(onlooker.frames)
        # The chat and the dealer's lines carry no card: the same line reaches everyone.
        await alice_tab.send(action="chat", text="good game")
        chat_frames = [await client.until("good game") for client in everyone]
        assert len(set(chat_frames)) == 1
        chat_and_dealer = [f for client in everyone for f in client.frames if "chat-line" in f and "felt" not in f]
        assert leaks(chat_and_dealer, SEAT_1_CARDS + SEAT_2_CARDS) == []
        for client in everyone:
            await client.close()

    async_to_sync(scenario)()


def test_a_hand_won_without_showdown_never_shows_a_card(heads_up, channel_layer):
    table, alice, bob = heads_up

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        bob_tab = await table_viewer(table, bob).connect()
        spectator = await table_viewer(table).connect()
        everyone = (alice_tab, bob_tab, spectator)
        await _start(table, everyone)
        await play(table, everyone, alice_tab, "raise", 6)
        await play(table, everyone, bob_tab, "fold")
        assert "wins the pot" in visible_text(spectator.frames[-1])
        assert leaks(bob_tab.frames, SEAT_1_CARDS) == [], leak_context(bob_tab.frames, SEAT_1_CARDS)
        assert leaks(alice_tab.frames, SEAT_2_CARDS) == [], leak_context(alice_tab.frames, SEAT_2_CARDS)
        assert leaks(spectator.frames, SEAT_1_CARDS + SEAT_2_CARDS) == [], leak_context(
            spectator.frames, SEAT_1_CARDS + SEAT_2_CARDS
        )
        assert leaks(bob_tab.frames, SEAT_2_CARDS)  # bob saw his own
        assert not any("hand-readout" in frame for tab in everyone for frame in tab.frames)  # no flop: no read-out
        for client in everyone:
            await client.close()

    async_to_sync(scenario)()


async def _start(table, everyone):
    await db(start_hand, table)
    await _everyone_is_shown_the_table_as_it_is(table, everyone)
