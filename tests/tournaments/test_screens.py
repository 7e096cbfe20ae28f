"""The tournament screens: lobby, registration from its page, results, the table's facts."""

import pytest
from django.urls import reverse

from tables.models import Seat
from tournaments.models import Entry, Tournament

from .support import make_tournament, register, tables_of

pytestmark = pytest.mark.django_db


def test_the_lobby_lists_tournaments_with_entrants_and_prize_pool(client, make_player):
    tournament = make_tournament(name="Evening PLO", max_entrants=6)
    register(tournament, make_player())
    page = client.get(reverse("tournaments")).content.decode()
    assert "Evening PLO" in page and "1/6" in page and "100" in page
    rows = client.get(reverse("tournaments"), headers={"HX-Request": "true"}).content.decode()
    assert rows.startswith("<tbody") and "Evening PLO" in rows


def test_a_player_registers_and_unregisters_from_the_tournament_page(client, make_player):
    tournament = make_tournament(max_entrants=6)
    alice = make_player()
    client.force_login(alice)
    page = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    request_id = page.split('name="request_id" value="')[1].split('"')[0]
    client.post(reverse("tournament_register", args=[tournament.pk]), {"request_id": request_id})
    assert Entry.objects.filter(tournament=tournament, player=alice, state=Entry.State.REGISTERED).exists()
    # The same form again is refused and changes nothing.
    client.post(reverse("tournament_register", args=[tournament.pk]), {"request_id": request_id})
    assert Entry.objects.filter(tournament=tournament, player=alice).count() == 1
    client.post(reverse("tournament_unregister", args=[tournament.pk]))
    assert Entry.objects.get(tournament=tournament, player=alice).state == Entry.State.REFUNDED


def test_spanish_pages(client, make_player):
    tournament = make_tournament(max_entrants=6)
    client.cookies["django_language"] = "es"
    page = client.get(reverse("tournament", args=[tournament.pk]), headers={"Accept-Language": "es"}).content.decode()
    assert "Niveles de ciegas" in page


def test_a_tournament_table_shows_level_next_level_place_and_average_stack(client, make_player):
    tournament = make_tournament()
    players = [make_player() for _ in range(3)]
    for player in players:
        register(tournament, player)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING
    [table] = tables_of(tournament)
    client.force_login(players[0])
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert reverse("tournament_table_info", args=[table.pk]) in page
    assert "buy-in" not in page.split("table-facts")[1].split("</p>")[0]
    info = client.get(reverse("tournament_table_info", args=[table.pk])).content.decode()
    assert "level 1: 10/20" in info and "next 20/40" in info
    assert "3 of 3 left" in info and "you are 1" in info and "average stack 300" in info
    assert Seat.objects.filter(table=table).count() == 3


def test_a_seated_player_takes_the_add_on_from_the_tournament_page(client, make_player):
    from django.utils import timezone

    from tournaments.services.clock import tick

    tournament = make_tournament(
        kind=Tournament.Kind.SCHEDULED,
        starts_at=timezone.now(),
        max_entrants=6,
        late_registration_levels=1,
        add_on_chips=200,
        add_on_price=40,
    )
    players = [make_player() for _ in range(2)]
    for player in players:
        register(tournament, player)
    tick(timezone.now())
    client.force_login(players[0])
    page = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert "Add-on: 200 chips for 40" in page
    request_id = page.split('name="request_id" value="')[1].split('"')[0]
    client.post(reverse("tournament_add_on", args=[tournament.pk]), {"request_id": request_id})
    assert Entry.objects.get(tournament=tournament, player=players[0]).add_on
    [table] = tables_of(tournament)
    assert Seat.objects.get(table=table, player=players[0]).stack == 500


def test_the_registration_that_starts_a_sit_and_go_returns_to_a_page_with_the_start_alert(client, make_player):
    """RULES 8.2: the last seat fills and the players are seated; the page the last registrant
    returns to opened no socket before the start, so it shows the alert itself, once."""
    tournament = make_tournament(max_entrants=3)
    for player in [make_player(), make_player()]:
        register(tournament, player)
    carol = make_player()
    client.force_login(carol)
    page = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert 'data-alert="' not in page
    request_id = page.split('name="request_id" value="')[1].split('"')[0]
    response = client.post(reverse("tournament_register", args=[tournament.pk]), {"request_id": request_id})
    page = client.get(response.url).content.decode()
    [table] = tables_of(tournament)
    alert = page.split('<div id="room-alert"')[1].split("</div>")[0]
    assert f'data-alert="tournament-{tournament.pk}-start"' in alert and f'href="/tables/{table.pk}/"' in alert
    assert 'data-alert="' not in client.get(response.url).content.decode()  # once
