"""The table chat's rules: who may write, the length cap, the rate limit, escaping, mutes, dealer lines, pruning."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services
from tables.models import ChatMessage, ChatMute
from tables.presentation.chat import chat_append_fragment, chat_line, chat_panel_fragments
from tables.selectors.chat import chat_view, recent_messages
from tables.services import chat
from tables.services.chat import ChatRefused

from ..support.tables import act, running_hand, sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(make_table, make_player):
    return make_table(), make_player("alice"), make_player("bob")


def test_a_logged_in_watcher_writes_and_the_message_is_kept_as_typed(room):
    table, alice, _bob = room
    message = chat.send_message(user=alice, table_id=table.pk, text="  nice   hand\t")
    assert message.text == "nice hand" and message.author == alice and not message.is_dealer
    assert recent_messages(table.pk) == [message]


def test_an_anonymous_watcher_reads_but_cannot_write(room):
    from django.contrib.auth.models import AnonymousUser

    table, _alice, _bob = room
    with pytest.raises(ChatRefused, match="Log in to chat"):
        chat.send_message(user=AnonymousUser(), table_id=table.pk, text="hi")
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize("text", ["", "   ", "\u200b\u202e"])
def test_an_empty_message_is_refused(room, text):
    table, alice, _bob = room
    with pytest.raises(ChatRefused, match="Type a message"):
        chat.send_message(user=alice, table_id=table.pk, text=text)
    assert not ChatMessage.objects.exists()


def test_a_message_over_the_length_cap_is_refused_and_changes_nothing(room, settings):
    table, alice, _bob = room
    settings.CHAT_MAX_CHARS = 20
    chat.send_message(user=alice, table_id=table.pk, text="x" * 20)
    with pytest.raises(ChatRefused, match="at most 20 characters"):
        chat.send_message(user=alice, table_id=table.pk, text="x" * 21)
    assert ChatMessage.objects.count() == 1


def test_the_rate_limit_counts_per_player(room, settings):
    table, alice, bob = room
    settings.CHAT_RATE = "3/m"
    for n in range(3):
        chat.send_message(user=alice, table_id=table.pk, text=f"message {n}")
    with pytest.raises(ChatRefused, match="too fast"):
        chat.send_message(user=alice, table_id=table.pk, text="one too many")
    chat.send_message(user=bob, table_id=table.pk, text="bob has his own count")
    assert ChatMessage.objects.filter(author=alice).count() == 3


@pytest.mark.parametrize(("rate", "parsed"), [("5/10s", (5, 10)), ("3/m", (3, 60)), ("10/h", (10, 3600))])
def test_the_rate_setting_is_read_as_messages_per_window(settings, rate, parsed):
    settings.CHAT_RATE = rate
    assert chat.chat_rate() == parsed


def test_a_player_muted_by_staff_cannot_write(room):
    table, alice, _bob = room
    alice.chat_muted = True
    alice.save()
    with pytest.raises(ChatRefused, match="muted you"):
        chat.send_message(user=alice, table_id=table.pk, text="hello")
    assert not ChatMessage.objects.exists()


def test_html_and_links_are_shown_as_text(room):
    table, alice, _bob = room
    message = chat.send_message(
        user=alice, table_id=table.pk, text='<script>alert(1)</script> <a href="http://x.test">win</a> http://y.test'
    )
    html = chat_append_fragment(message)
    assert "<script>" not in html and "<a " not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;a href=&#34;http://x.test&#34;&gt;" in html
    assert "http://y.test" in html and 'href="http://y.test"' not in html


def test_a_player_mutes_another_for_themselves_only(room, make_player):
    table, alice, bob = room
    carol = make_player("carol")
    chat.send_message(user=bob, table_id=table.pk, text="from bob")
    chat.mute(user=alice, player_id=bob.pk, table_id=table.pk)
    chat.mute(user=alice, player_id=bob.pk, table_id=table.pk)  # twice: still one mute
    assert ChatMute.objects.count() == 1
    shown = chat_view(table.pk, alice.pk)
    assert shown.muted == {bob.pk} and shown.muted_players == [(bob.pk, "bob")]
    assert shown.lines == []
    assert [m.text for m in chat_view(table.pk, carol.pk).lines] == ["from bob"]
    chat.unmute(user=alice, player_id=bob.pk)
    assert [m.text for m in chat_view(table.pk, alice.pk).lines] == ["from bob"]


@pytest.mark.parametrize("player", ["self", 10**9, True, "3"])
def test_a_bad_mute_is_refused(room, player):
    table, alice, _bob = room
    with pytest.raises(ChatRefused):
        chat.mute(user=alice, player_id=alice.pk if player == "self" else player, table_id=table.pk)
    assert not ChatMute.objects.exists()


def test_the_dealer_says_when_a_hand_starts_and_who_won(room):
    table, alice, bob = room
    sit(table, alice, 1)
    sit(table, bob, 2)
    services.start_hand_if_due(table_id=table.pk)
    act(table, alice, "fold")  # heads-up, alice on the button folds: bob wins the blinds
    assert running_hand(table) is None
    lines = [chat_line(m).text for m in recent_messages(table.pk)]
    assert lines == ["Hand #1 starts.", "bob wins 2."]  # the uncalled 1 went back to him (RULES 3.9)
    panel = chat_panel_fragments(recent_messages(table.pk), logged_in=False, muted=[])["chat-lines"]
    assert panel.count("chat-dealer") == 2 and "mute-form" not in panel


def test_old_lines_are_pruned_after_the_retention(room, settings):
    table, alice, _bob = room
    settings.CHAT_RETENTION_HOURS = 24
    now = timezone.now()
    chat.send_message(user=alice, table_id=table.pk, text="old", now=now - timedelta(hours=25))
    chat.send_message(user=alice, table_id=table.pk, text="recent", now=now - timedelta(hours=23))
    assert chat.prune(now) == 1
    assert [m.text for m in recent_messages(table.pk)] == ["recent"]


def test_a_reconnect_shows_only_the_recent_lines(room, settings):
    table, alice, _bob = room
    settings.CHAT_RECENT_LINES = 3
    settings.CHAT_RATE = "100/m"
    for n in range(5):
        chat.send_message(user=alice, table_id=table.pk, text=f"line {n}")
    assert [m.text for m in recent_messages(table.pk)] == ["line 2", "line 3", "line 4"]
