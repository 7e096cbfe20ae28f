"""The operator's console for tables: configuration, the close action, read-only hands."""

import pytest
from django.urls import reverse

from cashier.selectors import bankroll_balance
from tables import services
from tables.models import Hand, Seat

from ..support.tables import sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser(username="boss", password="x"))
    return client


def test_closing_an_idle_table_cashes_everyone_out(staff_client, make_player, make_table, assert_audit_clean):
    table, player = make_table(), make_player()
    sit(table, player, 3, buy_in=150)
    response = staff_client.post(
        reverse("admin:tables_table_changelist"),
        {"action": "close_tables", "_selected_action": [table.pk]},
        follow=True,
    )
    assert b"closed and players cashed out" in response.content
    table.refresh_from_db()
    assert not table.is_active and not Seat.objects.filter(table=table).exists()
    assert bankroll_balance(player) == 10_000
    assert_audit_clean()


def test_hands_and_their_events_are_read_only(staff_client, heads_up):
    table, _, _ = heads_up
    hand = services.start_hand_if_due(table_id=table.pk)
    page = staff_client.get(reverse("admin:tables_hand_change", args=[hand.pk]))
    assert page.status_code == 200 and b"blind_posted" in page.content
    assert hand.deck.encode() not in page.content and hand.server_seed.encode() not in page.content
    assert hand.table.next_server_seed.encode() not in page.content
    assert b"secret until the hand is complete" in page.content
    assert b"hidden until the hand is complete" in page.content
    for event in hand.events.filter(type="hole_cards_dealt"):
        for card in event.payload["cards"]:
            assert f"&#x27;{card}&#x27;".encode() not in page.content  # as the admin escapes a list item
    assert staff_client.get(reverse("admin:tables_hand_add")).status_code == 403
    assert staff_client.post(reverse("admin:tables_hand_delete", args=[hand.pk]), {"post": "yes"}).status_code == 403
    assert Hand.objects.filter(pk=hand.pk).exists()


def _queries(client, url) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_table_list_costs_the_same_queries_for_two_tables_or_six(staff_client, make_player, make_table):
    url = reverse("admin:tables_table_changelist")
    for _ in range(2):
        sit(make_table(), make_player(), 1)
    two = _queries(staff_client, url)
    for _ in range(4):
        sit(make_table(), make_player(), 1)
    assert _queries(staff_client, url) == two


def test_a_hand_page_costs_the_same_queries_whatever_its_length(staff_client, make_player, make_table):
    table = make_table()
    players = [make_player() for _ in range(3)]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    hand = services.start_hand_if_due(table_id=table.pk)
    url = reverse("admin:tables_hand_change", args=[hand.pk])
    short = _queries(staff_client, url)
    services.act(table_id=table.pk, user=players[0], kind="call", amount=None, sequence=1)
    services.act(table_id=table.pk, user=players[1], kind="call", amount=None, sequence=2)
    assert _queries(staff_client, url) == short
