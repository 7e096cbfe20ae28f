"""Fixtures for the pages and websockets: the channel layer, a daphne live server, Chromium.
The helpers they and the tests use live in tests/support (sockets, tables, decks, browser)."""

from __future__ import annotations

import os
from functools import partial

import pytest

from tests.support.browser import BROWSER_WAIT_MS, CHROMIUM_ARGS, DESKTOP, MARK_SOCKET_OPEN, SCREENSHOTS


@pytest.fixture(params=["redis", "in-memory"])
def channel_layer(request, settings):
    """Run a test over channels-redis (when REDIS_URL is set) and over the in-process layer."""
    if request.param == "in-memory":
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    else:
        request.getfixturevalue("needs_redis")
    return request.param


@pytest.fixture
def pubsub_layer(needs_redis):
    """The room's channel layer over Redis (``config.pubsub_layer``), flushed afterwards."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from config.pubsub_layer import PubSubChannelLayer

    layer = get_channel_layer()
    assert isinstance(layer, PubSubChannelLayer)
    yield layer
    async_to_sync(layer.flush)()


# --- the live server and the browser ----------------------------------------------------


@pytest.fixture(scope="session")
def live_server_url(needs_postgresql, needs_redis, django_db_setup, django_db_blocker):
    """A real daphne process serving the app (HTTP and websockets) on the test database, one
    per test process (each xdist worker has its own), shared by the modules that use it.

    It needs PostgreSQL and channels-redis: the forked server shares the test's database, and
    the test process reaches the server's sockets only through Redis. Forked with database
    access unblocked (the child keeps the state it is forked in) and before Chromium starts,
    so the child inherits no running event loop.
    """
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from channels.testing.live import make_application
    from daphne.testing import DaphneProcess
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.test import override_settings

    # The server is forked from this process, which may have used asgiref's thread-sensitive
    # executor (an earlier test's sync_to_async): its thread would not exist in the child and
    # every database call there would wait forever. A fresh executor starts its thread on
    # first use, in whichever process uses it. Likewise the child makes its own channel layer.
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    channel_layers.backends.clear()
    # The test deals every hand itself (with a chosen deck): no table clock in the server.
    with django_db_blocker.unblock(), override_settings(EMBEDDED_CLOCK=False):
        server = DaphneProcess("localhost", partial(make_application, static_wrapper=ASGIStaticFilesHandler))
        server.start()
    try:
        if not server.ready.wait(timeout=10):
            raise RuntimeError("daphne did not start")
        yield f"http://localhost:{server.port.value}"
    finally:
        server.terminate()
        server.join(5)


# The worker's one Chromium while its browser tests run back to back (see pytest_runtest_teardown).
_browser: dict = {}


@pytest.fixture
def chromium(live_server_url):
    """Debian's Chromium through Playwright: started once for a run of browser tests on this
    worker (the browser modules run one after the other, tests/conftest.py orders them) and
    stopped before the first test that needs none, so Playwright's event loop never outlives
    the browser tests."""
    if not _browser:
        from playwright.sync_api import sync_playwright

        _browser["previous"] = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
        # Playwright's sync API keeps an event loop on this thread; the ORM calls made
        # by the test itself are still plain synchronous calls.
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        _browser["playwright"] = sync_playwright()
        playwright = _browser["playwright"].__enter__()
        _browser["chromium"] = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
    return _browser["chromium"]


def _stop_chromium() -> None:
    _browser.pop("chromium").close()
    _browser.pop("playwright").__exit__(None, None, None)
    previous = _browser.pop("previous")
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.hookimpl(trylast=True)  # after the test's own fixtures (its pages) are torn down
def pytest_runtest_teardown(item, nextitem):
    if _browser and (nextitem is None or "chromium" not in getattr(nextitem, "fixturenames", ())):
        _stop_chromium()


@pytest.fixture
def open_tab(chromium, live_server_url):
    """A new browser context (its own cookies: one person) with one page on the live server;
    ``locale``: the browser's language (its Accept-Language), Chromium's own by default."""
    contexts = []

    def open_one(viewport=DESKTOP, locale=None):
        # Playwright's wait_for_function polls its predicate with eval, which the site's
        # Content-Security-Policy forbids; tests/web/test_csp.py walks the site with it enforced.
        options = {"locale": locale} if locale else {}
        context = chromium.new_context(viewport=viewport, base_url=live_server_url, bypass_csp=True, **options)
        context.set_default_timeout(BROWSER_WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.add_init_script(MARK_SOCKET_OPEN)
        return page

    yield open_one
    for context in contexts:
        context.close()
