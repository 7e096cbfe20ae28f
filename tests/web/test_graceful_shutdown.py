"""A server that is told to stop (SIGTERM) closes its sockets with 1001, "going away"; the page
says it is reconnecting, comes back when a server listens again, and shows what happened
while it was away (tables/realtime/graceful_shutdown.py, static/js/connection.js)."""

import signal

import pytest

from tables import services

from ..support.browser import CHROMIUM_ARGS, SCREENSHOTS, in_thread
from ..support.processes import free_port, serve, stop
from ..support.sockets import logged_in_session
from ..support.tables import running_hand, start_hand, table_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_SOCKET = """
window.closeCodes = [];
window.opens = 0;
document.addEventListener('htmx:wsClose', (e) => window.closeCodes.push(e.detail.event.code));
document.addEventListener('htmx:wsOpen', () => { window.opens += 1; });
"""


def test_sigterm_closes_with_going_away_and_the_page_catches_up(heads_up, tmp_path, monkeypatch):
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop on this thread; the test's ORM calls are plain.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    table, alice, _bob = heads_up
    start_hand(table)
    port = free_port()
    log = tmp_path / "server.log"
    server = serve(port, log)
    session_key = logged_in_session(alice).session_key
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
            context = browser.new_context(base_url=f"http://127.0.0.1:{port}", bypass_csp=True)
            context.set_default_timeout(15000)
            context.add_cookies([{"name": "sessionid", "value": session_key, "url": f"http://127.0.0.1:{port}"}])
            page = context.new_page()
            page.add_init_script(RECORD_SOCKET)
            page.goto(f"/tables/{table.pk}/")
            page.wait_for_function("window.opens === 1")
            page.wait_for_selector('#controls button[data-act="call"]')  # alice, on the button, acts first
            assert page.is_hidden("#connection-status")

            server.send_signal(signal.SIGTERM)
            page.wait_for_selector("#connection-status", state="visible")
            assert "reconnecting" in page.inner_text("#connection-status")
            server.wait(15)  # it stops by itself once its sockets are closed
            assert page.evaluate("window.closeCodes")[0] == 1001, page.evaluate("window.closeCodes")
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "reconnecting.png"))

            # While no server listens, the hand goes on: alice calls from another tab, say.
            hand = running_hand(table)
            in_thread(services.act, table_id=table.pk, user=alice, kind="call", amount=None, sequence=hand.sequence)
            version = table_version(table)

            server = serve(port, log)  # back (another daphne behind the proxy would do the same)
            page.wait_for_selector("#connection-status", state="hidden")
            page.wait_for_selector(f'#felt[data-version="{version}"]', state="attached")
            assert page.locator('#controls button[data-act="call"]').count() == 0  # bob's turn now
            assert page.evaluate("window.opens") >= 2
            page.screenshot(path=str(SCREENSHOTS / "reconnected.png"))
            browser.close()
    finally:
        stop(server)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
