"""A staff chat mute or unmute takes effect at once on every open socket (issue 25, item 7)."""

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.urls import reverse

from tables.models import ChatMessage
from tables.services import chat

from ..support.sockets import db, table_viewer

pytestmark = pytest.mark.django_db(transaction=True)


def _staff_action(action: str, player) -> None:
    """What the admin's action does to the selected players (``UserAdmin.mute_in_chat``)."""
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.create_superuser(username=f"boss-{action}", password="x"))
    response = client.post(
        reverse("admin:accounts_user_changelist"), {"action": action, "_selected_action": [player.pk]}
    )
    assert response.status_code == 302


def test_a_staff_mute_and_unmute_reach_a_socket_opened_before(heads_up):
    table, alice, _bob = heads_up

    async def scenario():
        first_tab = await table_viewer(table, alice).connect()
        second_tab = await table_viewer(table, alice).connect()
        await db(_staff_action, "mute_in_chat", alice)
        for tab in (first_tab, second_tab):
            await tab.send(action="chat", text="still here?")
            await tab.until("muted you")
        assert await db(ChatMessage.objects.count) == 0
        await db(_staff_action, "unmute_in_chat", alice)
        await first_tab.send(action="chat", text="back again")
        await second_tab.until("back again")
        for tab in (first_tab, second_tab):
            await tab.close()

    async_to_sync(scenario)()


def test_the_service_reads_the_mute_now_not_from_the_row_loaded_at_connect(heads_up):
    table, alice, _bob = heads_up
    loaded_at_connect = get_user_model().objects.get(pk=alice.pk)
    get_user_model().objects.filter(pk=alice.pk).update(chat_muted=True)
    with pytest.raises(chat.ChatRefused, match="muted you"):
        chat.send_message(user=loaded_at_connect, table_id=table.pk, text="hello")
