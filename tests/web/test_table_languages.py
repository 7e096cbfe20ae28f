"""Two players at one table, each in their own language, in the same hand: every socket
forwards the public screens in its viewer's language and a player's own screen comes in
theirs; hole cards still reach only their owner, in any language."""

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings

from ..support.decks import SEAT_1_CARDS, SEAT_2_CARDS
from ..support.sockets import current_sequence, db, leaks, table_viewer, visible_text
from ..support.tables import start_hand, table_version

pytestmark = pytest.mark.django_db(transaction=True)


def _set_language(player, language: str) -> None:
    player.language = language
    player.save(update_fields=["language"])


def test_a_spanish_and_an_english_player_each_read_their_own_language_in_the_same_hand(heads_up, channel_layer):
    table, alice, bob = heads_up  # alice: the button, small blind, first to act heads-up
    _set_language(alice, "es")
    _set_language(bob, "en")

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        bob_tab = await table_viewer(table, bob).connect()
        watcher = table_viewer(table)  # a visitor whose browser asks for Spanish
        watcher.communicator.scope["headers"] = [(b"accept-language", b"es-ES,es;q=0.9")]
        await watcher.connect()
        await db(start_hand, table)
        dealt = await db(table_version, table)
        for tab in (alice_tab, bob_tab, watcher):
            await tab.until_version(dealt)
        seen = {tab: visible_text("".join(tab.frames)) for tab in (alice_tab, bob_tab, watcher)}
        assert "Tus cartas:" in seen[alice_tab] and "Retirarse" in seen[alice_tab]
        assert "alice pone la ciega pequeña: 1" in seen[alice_tab] and "posts" not in seen[alice_tab]
        assert "Dealt to you:" in seen[bob_tab] and "bob posts the big blind: 2" in seen[bob_tab]
        assert "Tus cartas" not in seen[bob_tab] and "ciega" not in seen[bob_tab]
        assert "bob pone la ciega grande: 2" in seen[watcher] and "posts" not in seen[watcher]
        # Private stays private, in either language.
        assert leaks(alice_tab.frames, SEAT_1_CARDS) and leaks(alice_tab.frames, SEAT_2_CARDS) == []
        assert leaks(bob_tab.frames, SEAT_2_CARDS) and leaks(bob_tab.frames, SEAT_1_CARDS) == []
        assert leaks(watcher.frames, SEAT_1_CARDS + SEAT_2_CARDS) == []

        # alice calls: the next screens again speak each one's language.
        await alice_tab.send(action="call", sequence=str(await current_sequence(table)))
        assert "alice iguala 1" in visible_text(await alice_tab.until("alice iguala 1"))
        assert "Check" in visible_text(await bob_tab.until("alice calls 1"))  # with bob's option, in English
        await watcher.until("alice iguala 1")
        # A refusal is in its player's language too.
        await bob_tab.send(action="raise", amount="1", sequence=str(await current_sequence(table)))
        assert "Raise must be to between" in await bob_tab.until('id="table-error"')
        for tab in (alice_tab, bob_tab, watcher):
            await tab.close()

    async_to_sync(scenario)()


def test_a_player_without_a_profile_language_reads_the_language_their_browser_asked_for(heads_up, channel_layer):
    """Their own screens are pushed in the room's language; their socket renders its own in Spanish."""
    table, alice, _bob = heads_up
    _set_language(alice, "")
    assert settings.LANGUAGE_CODE == "en"

    async def scenario():
        alice_tab = table_viewer(table, alice)
        alice_tab.communicator.scope["cookies"] = {settings.LANGUAGE_COOKIE_NAME: "es"}
        await alice_tab.connect()
        await db(start_hand, table)
        await alice_tab.until_version(await db(table_version, table))
        text = visible_text("".join(alice_tab.frames))
        assert "Tus cartas:" in text and "Retirarse" in text and "Dealt to you" not in text
        assert leaks(alice_tab.frames, SEAT_2_CARDS) == []
        await alice_tab.close()

    async_to_sync(scenario)()


def test_the_public_screens_are_rendered_only_in_the_languages_a_socket_reads(heads_up, channel_layer, monkeypatch):
    """Only Spanish is read at the table: a change renders its public fragments in Spanish
    only; an English socket that opens later reads its snapshot and then its own language."""
    from tables.realtime import notify

    table, alice, bob = heads_up
    _set_language(alice, "es")
    _set_language(bob, "es")
    published = []
    real_messages = notify._screen_messages
    monkeypatch.setattr(notify, "_screen_messages", lambda *args: published.append(args[1]) or real_messages(*args))

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        await db(start_hand, table)
        await alice_tab.until_version(await db(table_version, table))
        assert set(published[-1].public) == {"es"}
        english = await table_viewer(table).connect()  # a visitor whose browser asks for English
        assert "Waiting for" in visible_text(english.frames[0]) or "Hand #" in visible_text(english.frames[0])
        await alice_tab.send(action="call", sequence=str(await current_sequence(table)))
        assert "alice iguala 1" in visible_text(await alice_tab.until("alice iguala 1"))
        assert "alice calls 1" in visible_text(await english.until("alice calls 1"))
        assert set(published[-1].public) == {"es", "en"}
        await english.close()
        await alice_tab.close()

    async_to_sync(scenario)()
