"""Two players on touch phones (Chromium's mobile emulation: is_mobile, has_touch; every
control tapped, never clicked), in English and in Spanish: sign up, open the table, sit,
play a hand to showdown with the amount shortcuts and the buttons, read the hand's page.
On their turn each player's cards and buttons are on the screen without scrolling, the
page is never wider than the screen, the header's chips follow the buy-in, and the page
keeps the screen awake once seated."""

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tables import services

from ..support.browser import PASSWORD, in_thread, screenshot
from ..support.decks import SHOWDOWN_DECK, deck_from
from ..support.phones import layout_problems, phone_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A Screen Wake Lock that counts the page's requests (headless Chromium grants none).
COUNT_WAKE_LOCKS = (
    "Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {request: () => {"
    " window.wakeLocks = (window.wakeLocks || 0) + 1;"
    " return Promise.resolve({addEventListener() {}, release() { return Promise.resolve(); }}); }}});"
)
LOBBY = re.compile(r"^https?://[^/]+/$")
WORDS = {
    "en": {"seat": "Seat {n} · 200 chips", "bankroll": "Bankroll 9,800", "at_tables": "At tables 200"},
    "es": {"seat": "Asiento {n} · 200 fichas", "bankroll": "Banca 9.800", "at_tables": "En mesas 200"},
}


IN_VIEW = (
    "selector => { const e = document.querySelector(selector); if (!e) return false;"
    " const r = e.getBoundingClientRect();"
    " return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"
)


def in_view(page, selector) -> bool:
    """The element is wholly on the screen, the player having scrolled nothing (the page
    brings the action area into view when the turn comes, after the frame that brought it)."""
    try:
        page.wait_for_function(IN_VIEW, arg=selector, timeout=2000)
    except PlaywrightTimeout:
        box = page.eval_on_selector(selector, "e => JSON.stringify(e.getBoundingClientRect())")
        screenshot(page, "phone-off-screen")
        raise AssertionError(f"{selector} at {box}, the screen {page.viewport_size}") from None
    return True


def sign_up(page, username):
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.tap("main button[type=submit]")
    page.wait_for_url(LOBBY)


def sit(page, table, seat, words):
    page.goto("/")
    page.tap(f'main a.button[href="/tables/{table.pk}/"]')
    page.wait_for_url(f"**/tables/{table.pk}/", wait_until="commit")  # not the lobby's own socket
    page.wait_for_function("window.socketOpen === true && (window.socketMessages || 0) > 0")
    assert page.evaluate("window.wakeLocks || 0") == 0  # watching: the phone may sleep
    page.select_option("#sit-form select[name=seat_number]", str(seat))
    page.fill("#sit-form input[name=buy_in]", "200")
    page.tap("#sit-form button[type=submit]")
    page.wait_for_selector(f"text={words['seat'].format(n=seat)}")
    page.wait_for_function("window.wakeLocks >= 1")  # seated: the screen stays awake


def tap_act(page, kind):
    page.wait_for_selector(f'#controls button[data-act="{kind}"]')
    assert in_view(page, "#controls .my-cards"), "the player's cards are off the screen on their turn"
    assert in_view(page, f'#controls button[data-act="{kind}"]'), f"{kind} is off the screen on the player's turn"
    sequence = page.get_attribute("#controls", "data-sequence")
    page.tap(f'#controls button[data-act="{kind}"]')
    page.wait_for_selector(f'#controls:not([data-sequence="{sequence}"])', state="attached")


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(("width", "height"), [(360, 640), (844, 390)], ids=["360-portrait", "844x390-landscape"])
def test_two_phone_players_sign_up_sit_and_play_a_hand_to_showdown(
    chromium, live_server_url, make_table, language, width, height
):
    words = WORDS[language]
    table = in_thread(make_table, name=f"Phone {language} {width}")
    phones = [phone_context(chromium, live_server_url, width, height, locale=language) for _ in range(2)]
    for context in phones:
        context.add_init_script(COUNT_WAKE_LOCKS)
    ana, ben = (context.new_page() for context in phones)
    try:
        for page, name, seat in ((ana, "ana", 1), (ben, "ben", 2)):
            sign_up(page, f"{name}_{language}_{width}")
            sit(page, table, seat, words)
            # The header follows the buy-in, without a reload.
            page.wait_for_selector(f"#header-chips .bankroll >> text={words['bankroll']}")
            page.wait_for_selector(f"#header-chips .at-tables >> text={words['at_tables']}")
            assert layout_problems(page) == []
        in_thread(services.start_hand_if_due, table_id=table.pk, deck=deck_from(SHOWDOWN_DECK))
        # Pre-flop: ana (button, small blind) taps the pot shortcut and raises; ben calls.
        ana.wait_for_selector('#controls button[data-act="raise"]')
        ana.tap("#controls .preset >> nth=-1")
        assert ana.input_value("#controls input[name=amount]") == "6"
        screenshot(ana, f"phone-{language}-{width}-your-turn")
        tap_act(ana, "raise")
        tap_act(ben, "call")
        # Flop, turn and river: checked down to the showdown.
        for _street in range(3):
            tap_act(ben, "check")
            tap_act(ana, "check")
        ana.wait_for_selector("#felt .seat.winner")
        assert layout_problems(ana) == []
        screenshot(ana, f"phone-{language}-{width}-showdown")
        # The hand's page, read on the phone.
        ben.goto("/hands/")
        ben.tap("main table a[href^='/hands/']")
        ben.wait_for_selector("#replayer")
        assert layout_problems(ben) == []
    finally:
        for context in phones:
            context.close()
