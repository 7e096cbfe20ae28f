"""Chromium for the browser tests, calling the services beside Playwright's event loop, and
what a person does on the pages (sign up, open a table, take a seat, act)."""

import re
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .processes import ROOT

# How long a browser test waits for what it expects (Playwright's default wait, set on each
# context): the suite runs four workers on two shared cores, where a page's navigation has
# taken more than 8 s; a wait is not a measure of speed (the benchmarks are).
BROWSER_WAIT_MS = 20_000

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage",
]  # fmt: skip


def in_thread(function, *args, **kwargs):
    """Call a service from a thread of its own: its after-commit broadcast uses async_to_sync,
    which refuses to run on the thread where Playwright keeps its event loop."""
    from django.db import connection

    def call():
        try:
            return function(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(call).result()


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
PASSWORD = "a-Strong-pass-4821"
# The socket is open once htmx says so: actions sent earlier would only be queued.
MARK_SOCKET_OPEN = (
    "document.addEventListener('htmx:wsOpen', () => { window.socketOpen = true; });"
    "document.addEventListener('htmx:wsAfterMessage', () => { window.socketMessages = (window.socketMessages || 0) + 1; });"
)


def sign_up(page, username):
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"^https?://[^/]+/$"))  # the lobby (the sign-up page's own URL ends in / too)


def open_lobby(page):
    page.goto("/")
    # The lobby's socket sends its snapshot once it connects: a row that changed since the page
    # was served is swapped then (those unchanged stay in place, static/js/connection.js), and a
    # click whose press and release straddle that swap lands on no link.
    page.wait_for_function("(window.socketMessages || 0) > 0")


def open_table(page, table):
    open_lobby(page)
    page.click(f'main a.button[href="/tables/{table.pk}/"]')  # Join, in any language
    # The lobby has a socket of its own: its frames must not be taken for the table's. Once the
    # table's document is in place ("commit") the wait is for its socket, not its "load".
    page.wait_for_url(f"**/tables/{table.pk}/", wait_until="commit")
    # The socket's snapshot replaces the seat forms: a form filled before it arrives is lost.
    page.wait_for_function("window.socketOpen === true && (window.socketMessages || 0) > 0")


def take_seat(page, seat_number, buy_in):
    try:
        page.wait_for_selector("#sit-form select[name=seat_number]")
    except PlaywrightTimeout as error:  # say what the page showed instead
        panel = (
            page.eval_on_selector("#seat-panel", "panel => panel.outerHTML")
            if page.query_selector("#seat-panel")
            else None
        )
        frames = page.evaluate("[window.socketOpen, window.socketMessages]")
        raise AssertionError(f"no sit-down form at {page.url} (socket open, frames: {frames}):\n{panel}") from error
    page.select_option("#sit-form select[name=seat_number]", str(seat_number))
    page.fill("#sit-form input[name=buy_in]", str(buy_in))
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(f'#seat-panel .seat-summary[data-chips="{buy_in}"]')  # in any language


def act(page, kind):
    """Click an action button and wait until this page has moved past that turn."""
    sequence = page.get_attribute("#controls", "data-sequence")
    page.click(f'#controls button[data-act="{kind}"]')
    page.wait_for_selector(f'#controls:not([data-sequence="{sequence}"])', state="attached")


def act_when_ready(page, kind):
    page.wait_for_selector(f'#controls button[data-act="{kind}"]')
    act(page, kind)


def hole_cards_on(page) -> set[str]:
    """Every face-up card the page shows at a seat or in the viewer's own hand."""
    return set(cards_on(page, "#felt .seat [data-card], #controls [data-card]"))


def cards_on(page, selector) -> list[str]:
    return page.eval_on_selector_all(selector, "cards => cards.map(card => card.dataset.card)")


def catch_up(page, other):
    """Wait until ``page`` shows the table at the version ``other`` shows (the felt carries it):
    then ``page`` has been sent every change ``other`` has."""
    version = other.get_attribute("#felt", "data-version")
    page.wait_for_selector(f'#felt[data-version="{version}"]', state="attached")


def screenshot(page, name):
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
