"""A mute names only someone seated at or chatting at the same table now, and every refused
mute reads the same: a mute frame cannot find out who exists or what they are called
(issue 25, item 9)."""

import pytest

from tables.models import ChatMute
from tables.services import chat
from tables.services.chat import ChatRefused

from ..support.tables import sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_and_people(make_table, make_player, django_user_model):
    table, elsewhere = make_table(), make_table()
    alice, seated, chatting = make_player("alice"), make_player("seated"), make_player("chatting")
    far_away, staff = make_player("far_away"), django_user_model.objects.create_superuser(username="boss", password="x")
    sit(table, seated, 1)
    chat.send_message(user=chatting, table_id=table.pk, text="hello")
    sit(elsewhere, far_away, 1)
    chat.send_message(user=far_away, table_id=elsewhere.pk, text="hi there")
    return table, alice, {"seated": seated, "chatting": chatting, "far_away": far_away, "staff": staff}


def test_someone_seated_or_chatting_at_this_table_may_be_muted(table_and_people):
    table, alice, people = table_and_people
    for name in ("seated", "chatting"):
        chat.mute(user=alice, player_id=people[name].pk, table_id=table.pk)
    assert ChatMute.objects.filter(owner=alice).count() == 2


def test_every_refused_mute_reads_the_same(table_and_people):
    table, alice, people = table_and_people
    refusals = set()
    for player_id in (people["far_away"].pk, people["staff"].pk, 10**9, alice.pk, "3", True, None):
        with pytest.raises(ChatRefused) as refused:
            chat.mute(user=alice, player_id=player_id, table_id=table.pk)
        refusals.add(str(refused.value))
    assert refusals == {"You can mute only someone seated or chatting at this table."}
    assert not ChatMute.objects.exists()


def test_unmuting_anyone_already_muted_stays_possible(table_and_people):
    table, alice, people = table_and_people
    seated = people["seated"]
    chat.mute(user=alice, player_id=seated.pk, table_id=table.pk)
    from tables import services

    services.leave(user=seated, table_id=table.pk)  # gone from the table
    chat.unmute(user=alice, player_id=seated.pk)
    assert not ChatMute.objects.exists()
    with pytest.raises(ChatRefused, match="You can mute only someone seated or chatting at this table"):
        chat.unmute(user=alice, player_id=people["far_away"].pk)  # never muted: the same refusal
