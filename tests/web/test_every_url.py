"""Every URL a player can reach, asked anonymously and by a stranger to its data, with good,
missing and malformed parameters: a refusal, a redirect to log in or a 404, never a 5xx
(issue 25, item 8). The URLconf is walked, so a new URL is covered as soon as it exists."""

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tables import services
from tables.models import Hand

from ..support.tables import act, sit
from ..tournaments.support import make_tournament

pytestmark = pytest.mark.django_db

NOT_A_PLAYERS = ("admin/",)  # staff only; the admin has its own tests
QUERIES = ("", "?page=x&step=-1&from=a&to=b", "?from=1&to=99999999999999999999999", "?next=//evil.example/&page=999")


def player_urls(patterns=None, prefix=""):
    """(route, parameter names) of every URL pattern outside the admin."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if route.startswith(NOT_A_PLAYERS):
            continue
        if isinstance(entry, URLResolver):
            yield from player_urls(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            yield route, list(entry.pattern.converters)


# Parameters that are not ids: a token or an encoded user id, good in form but matching nothing.
TOKENS = {"token": "not-a-real-token", "uidb64": "MQ"}


def filled(route: str, values: dict[str, int]) -> str:
    path = route.lstrip("^").rstrip("$")
    for name, value in values.items():
        path = path.replace(f"<int:{name}>", str(value))
    for name, value in TOKENS.items():
        path = path.replace(f"<str:{name}>", value).replace(f"<{name}>", value)
    assert "<" not in path, f"no value for a parameter of {route}"
    return "/" + path


@pytest.fixture
def someone_elses_hand(heads_up):
    """A complete hand and a running one, between alice and bob."""
    table, alice, _bob = heads_up
    services.start_hand_if_due(table_id=table.pk)
    act(table, alice, "fold")
    running = services.start_hand_if_due(table_id=table.pk)
    complete = Hand.objects.get(table=table, state=Hand.State.COMPLETE)
    return table, complete, running


def test_the_sweep_knows_the_urls_it_fills():
    routes = dict(player_urls())
    assert "hands/<int:hand_id>/proof.json" in routes and "tables/<int:table_id>/" in routes
    assert {name for names in routes.values() for name in names} <= {"hand_id", "table_id", "tournament_id", *TOKENS}


def test_no_url_answers_a_server_error_to_an_anonymous_visitor_or_a_stranger(someone_elses_hand, make_player):
    table, complete, running = someone_elses_hand
    tournament = make_tournament()
    anonymous = Client(raise_request_exception=False)
    stranger = Client(raise_request_exception=False)
    stranger_player = make_player("stranger")
    sit(table, stranger_player, 3)  # a stranger to the hands, not to the room
    stranger.force_login(stranger_player)
    failures = []
    for route, _names in player_urls():
        for ids in (
            {"hand_id": complete.pk, "table_id": table.pk, "tournament_id": tournament.pk},
            {"hand_id": running.pk, "table_id": 987_654, "tournament_id": 987_654},
        ):
            path = filled(route, ids)
            for who, client in (("anonymous", anonymous), ("stranger", stranger)):
                for query in QUERIES:
                    for method in (client.get, client.post):
                        response = method(path + query)
                        if response.status_code >= 500:
                            failures.append(f"{who} {method.__name__.upper()} {path}{query}: {response.status_code}")
    assert not failures, "\n".join(failures)


def test_the_proof_of_a_hand_sends_an_anonymous_visitor_to_log_in(someone_elses_hand):
    _table, complete, _running = someone_elses_hand
    response = Client().get(f"/hands/{complete.pk}/proof.json")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
