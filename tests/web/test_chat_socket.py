"""The chat over the table websocket: every viewer gets a line once, escaped; mutes; anonymous read-only; reconnects."""

import pytest
from asgiref.sync import async_to_sync

from tables.models import ChatMessage
from tables.services import chat

from ..support.sockets import db, table_viewer

pytestmark = pytest.mark.django_db(transaction=True)


def run(scenario):
    async_to_sync(scenario)()


def test_a_message_reaches_every_viewer_escaped_and_an_anonymous_one_cannot_write(heads_up, channel_layer):
    table, alice, bob = heads_up

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        bob_tab = await table_viewer(table, bob).connect()
        spectator = await table_viewer(table).connect()
        assert 'id="chat-lines"' in spectator.frames[0]  # the chat comes with the snapshot
        await alice_tab.send(action="chat", text="<b>gl</b> http://x.test")
        for tab in (alice_tab, bob_tab, spectator):
            frame = await tab.until("chat-line")
            assert "&lt;b&gt;gl&lt;/b&gt; http://x.test" in frame and "<b>" not in frame
            assert 'hx-swap-oob="beforeend"' in frame
        await spectator.send(action="chat", text="hi")
        await spectator.until("Log in to chat")
        assert await db(ChatMessage.objects.count) == 1
        for tab in (alice_tab, bob_tab, spectator):
            await tab.close()

    run(scenario)


def test_a_refused_message_is_told_to_its_sender_only(heads_up, settings):
    table, alice, _bob = heads_up
    settings.CHAT_MAX_CHARS = 10

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        await alice_tab.send(action="chat", text="x" * 11)
        await alice_tab.until("at most 10 characters")
        assert await db(ChatMessage.objects.count) == 0
        await alice_tab.close()

    run(scenario)


def test_a_muted_player_s_lines_stop_reaching_the_one_who_muted_them(heads_up, make_player):
    table, alice, bob = heads_up
    carol = make_player("carol")

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        carol_tab = await table_viewer(table, carol).connect()
        await db(chat.send_message, user=bob, table_id=table.pk, text="before the mute")
        await alice_tab.until("before the mute")
        await alice_tab.send(action="mute", player=str(bob.pk))
        panel = await alice_tab.until('id="chat-mutes"')
        assert "before the mute" not in panel and "Unmute" in panel  # the list again, without bob
        await db(chat.send_message, user=bob, table_id=table.pk, text="after the mute")
        await carol_tab.until("after the mute")
        # A line that must come next: alice got nothing of bob's in between.
        await db(chat.send_message, user=carol, table_id=table.pk, text="from carol")
        frame = await alice_tab.until("chat-line")
        assert "from carol" in frame and not any("after the mute" in f for f in alice_tab.frames)
        # A reconnect shows the recent lines, still without bob's.
        again = await table_viewer(table, alice).connect()
        assert "from carol" in again.frames[0] and "mute" in again.frames[0]
        assert "after the mute" not in again.frames[0] and "before the mute" not in again.frames[0]
        for tab in (alice_tab, carol_tab, again):
            await tab.close()

    run(scenario)
