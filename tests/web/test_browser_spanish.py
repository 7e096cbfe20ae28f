"""A Spanish-speaking player in Chromium (locale es-ES): sign up, sit, play a hand, read the
hand's page and the rules in Spanish, beside an English spectator of the same hand."""

import pytest

from tables import services

from ..support.browser import PASSWORD, PHONE, act, catch_up, in_thread, open_lobby, screenshot
from ..support.decks import SHOWDOWN_DECK, deck_from

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_up(page, username):
    page.goto("/accounts/signup/")
    assert page.inner_text("h1") == "Registrarse"
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/")
    assert "Tienes 10.000 fichas de juego en tu banca" in page.inner_text(".messages")


def test_a_hand_in_spanish_from_sign_up_to_the_hand_page_and_the_rules(open_tab, make_table):
    table = make_table(name="Mesa Pot Limit")  # Pot Limit 1/2, buy-in 40-200
    alicia = open_tab(locale="es-ES")
    bruno = open_tab(PHONE, locale="es-ES")
    watcher = open_tab(locale="en-US")
    sign_up(alicia, "alicia")
    sign_up(bruno, "bruno")
    for page, join in ((alicia, "Entrar en"), (bruno, "Entrar en"), (watcher, "Join")):
        open_lobby(page)
        page.get_by_role("link", name=f"{join} {table.name}").click()
        page.wait_for_url(f"**/tables/{table.pk}/", wait_until="commit")  # not the lobby's own socket
        page.wait_for_function("window.socketOpen === true")
    for page, seat in ((alicia, 1), (bruno, 2)):
        page.select_option("#sit-form select[name=seat_number]", str(seat))
        page.fill("#sit-form input[name=buy_in]", "200")
        page.click("#sit-form button[type=submit]")
        page.wait_for_selector(f"text=Asiento {seat} · 200 fichas")
    in_thread(services.start_hand_if_due, table_id=table.pk, deck=deck_from(SHOWDOWN_DECK))

    # Pre-flop: alicia (button, small blind) raises the pot, bruno folds.
    alicia.wait_for_selector('#controls button[data-act="raise"]')
    assert "Tu turno: 1 para igualar" in alicia.inner_text("#controls")
    assert [text.split()[0] for text in alicia.locator("#controls .preset").all_inner_texts()] == ["Mín.", "Bote"]
    assert "alicia pone la ciega pequeña: 1" in alicia.inner_text("#hand-log")
    alicia.click("#controls .preset >> text=Bote")
    screenshot(alicia, "es-table-desktop-your-turn")
    act(alicia, "raise")
    bruno.wait_for_selector("#controls >> text=Igualar 4")
    assert "alicia sube a 6" in bruno.inner_text("#hand-log")
    screenshot(bruno, "es-table-phone-your-turn")
    catch_up(watcher, bruno)
    assert "alicia raises to 6" in watcher.inner_text("#hand-log")  # the same hand, in English
    screenshot(watcher, "es-table-desktop-english-spectator")
    act(bruno, "fold")
    alicia.wait_for_selector("#felt .seat.winner")
    log = alicia.inner_text("#hand-log")
    assert "Los 4 que nadie igualó vuelven a alicia" in log and "alicia gana el bote (4)" in log
    screenshot(alicia, "es-table-desktop-won")

    # The hand's page: the list, the replayer and the fair deal, in Spanish.
    alicia.goto("/hands/")
    assert alicia.inner_text("h1") == "Mis manos"
    alicia.locator("table.history a").first.click()
    assert alicia.inner_text("#replayer-title") == "Reproductor"
    steps = alicia.inner_text("ol.steps")
    assert "alicia sube a 6." in steps and "bruno se retira." in steps and "El bote (4): alicia gana 4." in steps
    assert "Reparto justo" in alicia.inner_text("section.fairness")
    screenshot(alicia, "es-hand-page")

    # The rules, linked from the table.
    alicia.goto(f"/tables/{table.pk}/")
    alicia.get_by_role("link", name="Cómo se juega").click()
    assert alicia.inner_text("h1") == "Cómo se juega al Omaha High"
    assert "full de reyes y sietes" in alicia.inner_text("#two-cards")
    screenshot(alicia, "es-how-to-play")
