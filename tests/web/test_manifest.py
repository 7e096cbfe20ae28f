"""Installable on a phone: every page links the web app manifest, which opens the room full
screen on the lobby in its colours, with icons that exist; the policy lets the manifest load
(manifest-src); the header shows a player's chips (bankroll and at tables)."""

import json

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from ..support.tables import sit

pytestmark = pytest.mark.django_db


def test_every_page_links_the_manifest_and_the_theme_colour(client):
    page = client.get(reverse("lobby")).content.decode()
    assert f'<link rel="manifest" href="{reverse("manifest")}">' in page
    assert '<meta name="theme-color" content="#0b3d26">' in page
    assert "viewport-fit=cover" in page  # the page keeps to the safe areas (site.css env())


def test_the_manifest_opens_full_screen_on_the_lobby_with_icons_that_exist(client):
    response = client.get(reverse("manifest"), HTTP_ACCEPT_LANGUAGE="es")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == reverse("lobby") and manifest["display"] == "fullscreen"
    assert manifest["theme_color"] == "#0b3d26" and manifest["name"] == "Sala de Omaha"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon


def test_the_policy_allows_the_manifest_from_this_origin_only(client):
    assert "manifest-src 'self'" in client.get(reverse("lobby"))["Content-Security-Policy"]


def test_the_header_shows_the_bankroll_and_the_chips_at_tables(client, make_player, make_table):
    alice = make_player("alice")
    client.force_login(alice)
    header = client.get(reverse("how_to_play"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Banca 10.000" in header and "En mesas" not in header
    sit(make_table(), alice, 1, buy_in=200)
    chips = client.get(reverse("header_chips")).content.decode()
    assert "Bankroll 9,800" in chips and "At tables 200" in chips
    assert client.get(reverse("header_chips"))["Cache-Control"] == "no-store"


def test_a_visitor_has_no_chips_in_the_header(client):
    assert 'id="header-chips"' not in client.get(reverse("lobby")).content.decode()
