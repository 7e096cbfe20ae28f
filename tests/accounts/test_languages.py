"""Choosing the language: the browser's by default, the header's switcher for everyone, kept in
the player's profile (and a cookie otherwise); a socket finds its viewer's language too."""

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.languages import language_of_scope

pytestmark = pytest.mark.django_db


def _lang(response) -> str:
    return response.content.decode().split('<html lang="', 1)[1].split('"', 1)[0]


def test_the_browsers_language_by_default(client):
    assert _lang(client.get(reverse("lobby"), headers={"accept-language": "es-ES,es;q=0.9"})) == "es"
    assert _lang(client.get(reverse("lobby"), headers={"accept-language": "fr-FR,de;q=0.8"})) == "en"


def test_a_visitor_switches_and_a_cookie_remembers(client):
    response = client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert response.status_code == 302 and response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    assert _lang(client.get(reverse("lobby"), headers={"accept-language": "en"})) == "es"


def test_a_players_choice_is_kept_in_the_profile_and_wins_on_any_browser(client, make_player):
    player = make_player()
    client.force_login(player)
    client.post(reverse("set_language"), {"language": "es", "next": "/"})
    player.refresh_from_db()
    assert player.language == "es"
    elsewhere = type(client)()  # another browser: no cookie, English Accept-Language
    elsewhere.force_login(player)
    assert _lang(elsewhere.get(reverse("lobby"), headers={"accept-language": "en-GB"})) == "es"


def test_an_unknown_language_changes_nothing(client, make_player):
    player = make_player()
    client.force_login(player)
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    player.refresh_from_db()
    assert player.language == ""


def test_a_socket_speaks_its_viewers_language(make_player):
    player = make_player()
    anonymous = {"user": AnonymousUser(), "cookies": {}, "headers": [(b"accept-language", b"es-MX,es;q=0.9")]}
    assert language_of_scope(anonymous) == "es"
    assert language_of_scope({**anonymous, "cookies": {settings.LANGUAGE_COOKIE_NAME: "en"}}) == "en"
    player.language = "es"
    assert language_of_scope({"user": player, "cookies": {settings.LANGUAGE_COOKIE_NAME: "en"}, "headers": []}) == "es"
    assert language_of_scope({"user": AnonymousUser(), "headers": []}) == settings.LANGUAGE_CODE
