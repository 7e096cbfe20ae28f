"""The room in Spanish: the catalogue is complete, and every page and every pushed fragment
rendered in Spanish shows none of the English the catalogue translates (their text nodes are
walked against the catalogue's English messages); numbers are written the Spanish way."""

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone, translation

from tables import services
from tables.engine.errors import IllegalAction
from tables.models import Hand
from tables.presentation.fragments import error_fragment, lobby_rows_fragment
from tables.presentation.screens import screens
from tables.realtime.notify import in_every_language
from tables.selectors.lobby import lobby_rows
from tables.selectors.table_state import load_table_state
from tables.services.errors import refusal_text
from tests.support.catalogue import catalogue, english_left_in, english_phrases
from tests.support.history import arranged_deck, play_to_showdown, start
from tests.support.tables import act, sit

pytestmark = pytest.mark.django_db

SPANISH = {"accept-language": "es-ES,es;q=0.9"}


@pytest.fixture
def seat_three(make_player, make_table):
    """alice, bob and carol seated at a Pot Limit 1/2 table with 200 each; no hand yet."""
    table = make_table()
    players = {name: make_player(name) for name in ("alice", "bob", "carol")}
    for number, name in enumerate(players, start=1):
        sit(table, players[name], number, 200)
    return table, players


@pytest.fixture(scope="module")
def spanish_catalogue():
    return catalogue("es")


@pytest.fixture(scope="module")
def english(spanish_catalogue):
    return english_phrases(spanish_catalogue)


def test_the_spanish_catalogue_is_complete_with_no_fuzzy_entry(spanish_catalogue):
    assert len(spanish_catalogue) > 300
    assert [e.msgid for e in spanish_catalogue if e.fuzzy] == []
    assert [e.msgid for e in spanish_catalogue if not all(e.translations)] == []
    # Plural forms: Spanish has three in Django's catalogue ("1 ficha", "1.000.000 de fichas", "2 fichas").
    assert all(len(e.translations) == 3 for e in spanish_catalogue if e.plural)


def test_the_poker_terms_are_those_of_spanish_rooms(spanish_catalogue):
    words = {e.msgid: e.translations[0] for e in spanish_catalogue if not e.context and not e.plural}
    assert words["Small blind"] == "Ciega pequeña" and words["Big blind"] == "Ciega grande"
    assert words["Fold"] == "Retirarse" and words["Check"] == "Pasar" and words["Raise"] == "Subir"
    assert words["Call %(amount)s"] == "Igualar %(amount)s" and words["Bet"] == "Apostar"
    assert words["Pot"] == "Bote" and words["Side pot %(index)s"] == "Bote secundario %(index)s"
    assert words["Dealer button"] == "Botón del repartidor" and words["Hand"] == "Mano"
    assert words["Full house"] == "Full" and words["Flop"] == "Flop" and words["River"] == "River"


def test_the_checker_catches_the_english_page(client, english):
    """The walk is real: the same page in English is full of what it looks for."""
    english_page = client.get(reverse("lobby"), headers={"accept-language": "en"}).content.decode()
    assert len(english_left_in(english_page, english)) > 5


def _pages_of(client, player, hand) -> dict[str, str]:
    pages = {}
    client.force_login(player)
    for name, url in [
        ("lobby", reverse("lobby")),
        ("table", reverse("table", args=[hand.table_id])),
        ("how to play", reverse("how_to_play")),
        ("profile", reverse("profile")),
        ("hands", reverse("history:list")),
        ("hand, first step", reverse("history:detail", args=[hand.pk]) + "?step=0"),
        ("hand, last step", reverse("history:detail", args=[hand.pk])),
        ("password change", reverse("password_change")),
        ("password changed", reverse("password_change_done")),
    ]:
        response = client.get(url, headers=SPANISH)
        assert response.status_code == 200, name
        pages[name] = response.content.decode()
    client.logout()
    watching = reverse("table", args=[hand.table_id])
    for name, url in [("login", reverse("login")), ("sign-up", reverse("signup")), ("table, watching", watching)]:
        pages[name] = client.get(url, headers=SPANISH).content.decode()
    request = RequestFactory().get("/")
    with translation.override("es"):
        pages["locked out"] = render_to_string("registration/locked_out.html", request=request)
        for what in ("signup", "login"):
            context = {"what": what, "minutes": 3}
            pages[f"too many {what}"] = render_to_string("registration/too_many_attempts.html", context, request)
    return pages


def test_every_page_in_spanish_shows_no_english(client, seat_three, english):
    table, players = seat_three
    alice = players["alice"]
    alice.language = "es"
    alice.save()
    hand = play_to_showdown(table, players)
    pages = _pages_of(client, alice, hand)
    for name, html in pages.items():
        assert english_left_in(html, english) == [], name
    assert (
        "Retirarse" in pages["hand, first step"] + pages["hand, last step"] or "se retira" in pages["hand, last step"]
    )
    assert "Ciega pequeña" in pages["how to play"] or "ciega pequeña" in pages["how to play"]


def _all_fragments(state, language: str) -> dict[str, str]:
    rendered = screens(state, timezone.now())
    fragments = dict(rendered.public[language])
    for user_id, own in rendered.players.items():
        if rendered.languages[user_id] == language:
            fragments.update({f"{key} ({user_id})": html for key, html in own.items()})
    return fragments


def test_every_pushed_fragment_in_spanish_shows_no_english(seat_three, english):
    """The felt, the log, the seat boxes, controls and seat forms of a running Pot Limit hand with
    a player to act, then at the showdown; the lobby's rows; a refusal."""
    table, players = seat_three
    for player in players.values():
        player.language = "es"
        player.save()
    hand = start(table, arranged_deck(["Jh Js 5c 4d", "9c 9d 8h 2s", "As Ad Kc Qd"], "Ac 2h 3d Ks Tc"))
    act(table, players["alice"], "raise", 6)
    running = _all_fragments(load_table_state(table.pk), "es")
    assert any("Igualar " in html for html in running.values())  # bob's controls
    for key, html in running.items():
        assert english_left_in(html, english) == [], key
    act(table, players["bob"], "fold")
    act(table, players["carol"], "fold")
    over = _all_fragments(load_table_state(table.pk), "es")
    assert Hand.objects.get(pk=hand.pk).state == Hand.State.COMPLETE
    lobby = in_every_language(lambda: lobby_rows_fragment(lobby_rows()))["es"]
    for key, html in [*over.items(), ("lobby", lobby)]:
        assert english_left_in(html, english) == [], key
    assert "gana el bote" in "".join(over.values())


def test_refusals_are_in_the_players_language(seat_three, make_player):
    table, _players = seat_three
    with translation.override("es"):
        engine = refusal_text(IllegalAction("You cannot check facing a bet of {bet}", bet=1500))
        assert engine == "No puedes pasar ante una apuesta de 1.500"
        with pytest.raises(services.TableError) as taken:
            sit(table, make_player("dora"), 2)
        assert "El asiento 2 está ocupado." in error_fragment(refusal_text(taken.value))
    with translation.override("en"):
        assert refusal_text(IllegalAction("You cannot check facing a bet of {bet}", bet=1500)).endswith("1,500")


def test_chips_are_written_as_each_language_writes_them_and_data_stays_digits(client, make_player):
    player = make_player()
    client.force_login(player)
    spanish = client.get(reverse("profile"), headers=SPANISH).content.decode()
    player.language = "en"
    player.save()
    english = client.get(reverse("profile")).content.decode()
    assert "10.000 fichas" in spanish and 'data-chips="10000"' in spanish
    assert "10,000 chips" in english
