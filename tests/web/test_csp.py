"""The Content-Security-Policy: on every page, and nothing on any page breaks it.

A real Chromium walks the site (lobby, sign-up, log-in, a table with a running hand over
its websocket, the hand history, the profile, the admin as staff) and records every
console message and every ``securitypolicyviolation`` event: there must be none.
"""

import time

import pytest
from django.test import Client

from ..support.browser import BROWSER_WAIT_MS, in_thread
from ..support.tables import sit, start_hand

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-Strong-pass-4821"
REQUIRED_DIRECTIVES = [
    "default-src 'self'",
    "script-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "form-action 'self'",
]
# Violations reach the test through a function the page can call (it outlives navigations).
# An open socket is marked on the page for a selector to wait for: Playwright's
# wait_for_function would poll with eval, which this policy forbids.
REPORT_VIOLATIONS = """
document.addEventListener('securitypolicyviolation', (event) => {
  window.reportViolation(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} on ${location.pathname}`);
});
document.addEventListener('htmx:wsOpen', () => { document.documentElement.dataset.socketOpen = 'yes'; });
"""


SENTINEL = "https://blocked.invalid/last-violation.png"
LAST_VIOLATION = (
    f"body => {{ const image = document.createElement('img'); image.src = '{SENTINEL}'; body.append(image); }}"
)


AUTOFOCUS_NOTE = "Autofocus processing was blocked because a document already has a focused element."


def wait_for_socket(page):
    page.wait_for_selector("html[data-socket-open]", state="attached")


def _directives(header: str) -> list[str]:
    return [part.strip() for part in header.split(";")]


def test_every_page_sends_the_policy():
    client = Client()
    pages = ["/", "/accounts/signup/", "/accounts/login/"]
    for path in pages:
        policy = client.get(path)["Content-Security-Policy"]
        for directive in REQUIRED_DIRECTIVES:
            assert directive in _directives(policy), (path, policy)
        assert "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy.split("style-src")[0]


@pytest.mark.browser
def test_no_page_breaks_the_policy(chromium, live_server_url, make_player, make_table, django_user_model):
    table = make_table(name="CSP table")
    rival = make_player(username="rival")
    django_user_model.objects.create_superuser(username="boss", password=PASSWORD, email="boss@example.com")

    context = chromium.new_context(base_url=live_server_url)
    context.set_default_timeout(BROWSER_WAIT_MS)
    troubles: list[str] = []
    documents: dict[str, str | None] = {}
    context.expose_function("reportViolation", lambda text: troubles.append(f"violation: {text}"))
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()

    def console(message):
        # The browser's own request for /favicon.ico (the site has no icon) is no page's doing,
        # nor is its note that a field the test typed into before the page's autofocus ran
        # kept the focus (on a loaded machine the test types first).
        if message.location.get("url", "").endswith("/favicon.ico") or message.text.startswith(AUTOFOCUS_NOTE):
            return
        troubles.append(f"console {message.type} on {page.url}: {message.text} {message.location}")

    page.on("console", console)
    page.on("pageerror", lambda error: troubles.append(f"page error: {error}"))

    def record(response):
        if response.request.resource_type in ("document", "xhr", "fetch") and response.url.startswith(live_server_url):
            documents[response.url.removeprefix(live_server_url)] = response.headers.get("content-security-policy")

    page.on("response", record)

    try:
        page.goto("/")  # the lobby, live over its own websocket
        wait_for_socket(page)

        page.goto("/accounts/signup/")
        page.fill("#id_username", "walker")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server_url}/")

        # A table with a running hand: the felt, the player's own cards and controls, the
        # layout style sheet, all pushed over the websocket.
        page.goto(f"/tables/{table.pk}/")
        wait_for_socket(page)
        page.select_option("#sit-form select[name=seat_number]", "1")
        page.fill("#sit-form input[name=buy_in]", "200")
        page.click("#sit-form button[type=submit]")
        page.wait_for_selector("text=Seat 1 · 200 chips")
        in_thread(sit, table, rival, 2)
        in_thread(start_hand, table)
        page.wait_for_selector("#controls button[data-act]")
        page.wait_for_selector("#felt [data-card]")

        page.goto("/hands/")
        page.wait_for_selector("h1")
        page.goto("/accounts/profile/")
        page.wait_for_selector("text=chips")

        page.click("button:has-text('Log out')")
        page.wait_for_url(f"{live_server_url}/")
        page.goto("/accounts/login/")
        page.fill("#id_username", "boss")
        page.fill("#id_password", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server_url}/")
        page.goto("/admin/")
        page.wait_for_selector("#site-name")
        # Last, a violation made on purpose: reports reach the test in the order they are made,
        # so once this one is in, every earlier one is too (a fixed wait could end too soon).
        page.locator("body").evaluate(LAST_VIOLATION)
        deadline = time.monotonic() + 8
        # The console's line about the blocked image can come before the violation's report:
        # it is the report that is waited for.
        while (
            not any(trouble.startswith("violation: img-src") and SENTINEL in trouble for trouble in troubles)
            and time.monotonic() < deadline
        ):
            page.wait_for_timeout(50)
    finally:
        context.close()

    assert any(trouble.startswith("violation: img-src") and SENTINEL in trouble for trouble in troubles), troubles
    unexpected = [trouble for trouble in troubles if SENTINEL not in trouble]
    assert unexpected == [], "\n".join(unexpected)
    for path in [
        "/",
        "/accounts/signup/",
        "/accounts/login/",
        f"/tables/{table.pk}/",
        "/hands/",
        "/accounts/profile/",
        "/admin/",
    ]:
        assert path in documents, sorted(documents)
    for path, policy in documents.items():
        assert policy, f"no Content-Security-Policy on {path}"
        for directive in REQUIRED_DIRECTIVES:
            assert directive in _directives(policy), (path, policy)
