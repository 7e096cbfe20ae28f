"""The lobby and table pages over HTTP, and the lobby's live socket."""

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from tables import services
from tables.realtime.routing import websocket_urlpatterns

from ..support.sockets import db
from ..support.tables import fold_to_the_end, sit, start_hand

pytestmark = pytest.mark.django_db


def test_the_lobby_lists_open_tables_with_their_average_pot(client, heads_up, make_table):
    table, alice, bob = heads_up
    make_table(name="Closed", is_active=False)
    # Two hands won pre-flop: the button raises to 6, the big blind folds, 4 is returned, 4 awarded.
    for raiser, folder in [(alice, bob), (bob, alice)]:
        hand = start_hand(table)
        services.act(table_id=table.pk, user=raiser, kind="raise", amount=6, sequence=hand.sequence)
        services.act(table_id=table.pk, user=folder, kind="fold", amount=None, sequence=hand.sequence + 1)
    page = client.get("/").content.decode()
    assert "Heads-up PL" in page and "Closed" not in page
    assert '<td data-label="Seats" class="lobby-seats">2/6</td>' in page
    assert '<td data-label="Avg pot" class="lobby-pot">4</td>' in page
    assert f'href="/tables/{table.pk}/"' in page and 'ws-connect="/ws/lobby/"' in page


def test_a_spectator_can_open_a_table_page(client, heads_up):
    table, _alice, _bob = heads_up
    start_hand(table)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert f'ws-connect="/ws/tables/{table.pk}/"' in page
    assert "alice" in page and "bob" in page and "data-card=" not in page
    assert 'href="/hands/"' in page


def test_a_missing_or_closed_table_is_not_found(client, make_table):
    closed = make_table(is_active=False)
    assert client.get("/tables/999999/").status_code == 404
    assert client.get(f"/tables/{closed.pk}/").status_code == 404


def test_a_seated_player_sees_their_cards_and_controls_on_the_page(client, heads_up):
    table, alice, bob = heads_up
    start_hand(table)
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'aria-label="King of diamonds"' in page and 'data-act="raise"' in page
    client.force_login(bob)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'aria-label="Ace of clubs"' in page and "King of diamonds" not in page and "data-act=" not in page


def test_rule_2_9_the_felt_draws_a_dead_button_at_the_empty_seat_and_the_log_says_so(client, make_player, make_table):
    """Seats 1-4; seat 3 (the first hand's big blind) leaves. The next hand has no small blind,
    the one after it a dead button on seat 3, where nobody sits now."""
    table = make_table()
    players = {number: make_player(f"p{number}") for number in range(1, 5)}
    for number, player in players.items():
        sit(table, player, number)

    start_hand(table)
    fold_to_the_end(table, players)
    services.leave(user=players[3], table_id=table.pk)
    start_hand(table)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    log = page[page.index('id="hand-log"') :]
    assert log.index("Button: seat 2 (p2)") < log.index("No small blind this hand (dead small blind)")
    assert log.index("No small blind this hand (dead small blind)") < log.index("p4 posts the big blind: 2")
    assert 'class="dealer-button" data-seat="2"' in page
    fold_to_the_end(table, players)

    start_hand(table)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert page.count('class="dealer-button') == 1
    assert 'class="dealer-button dead" data-seat="3"' in page and 'aria-label="Dead button: seat 3"' in page
    assert 'id="seat-3" class="seat empty"' in page  # the button's seat is free
    assert "Button: seat 3 (dead button)" in page and "dead small blind" not in page


def test_rule_2_11_the_seat_controls_offer_one_live_big_blind_and_no_dead_small_blind(client, heads_up, make_player):
    table, alice, _bob = heads_up
    choice = "Post one big blind now and play the next hand (no dead small blind)"
    client.force_login(make_player("carol"))
    page = client.get(f"/tables/{table.pk}/").content.decode()
    sit_form = page[page.index('id="sit-form"') :]
    assert choice in sit_form[: sit_form.index("</form>")]
    services.sit_out(user=alice, table_id=table.pk)
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    sit_in_form = page[page.index('class="sit-in-form"') :]
    assert choice in sit_in_form[: sit_in_form.index("</form>")]
    assert "Wait for the big blind" in sit_in_form[: sit_in_form.index("</form>")]


@pytest.mark.django_db(transaction=True)
def test_the_lobby_socket_sends_the_list_then_live_seat_counts(make_table, make_player):
    table = make_table(name="Live Lobby")
    player = make_player()

    async def scenario():
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
        communicator.scope["user"] = AnonymousUser()
        connected, _ = await communicator.connect()
        assert connected
        snapshot = await communicator.receive_from()
        assert snapshot.startswith('<tbody id="lobby-tables">') and "Live Lobby" in snapshot
        await db(sit, table, player, 3)
        row = await communicator.receive_from()
        assert row.startswith(f'<tr id="lobby-table-{table.pk}">') and "1/6" in row
        await db(services.close_table, table_id=table.pk)
        assert "Live Lobby" not in await communicator.receive_from()  # closed: the list is sent again
        await communicator.disconnect()

    async_to_sync(scenario)()
