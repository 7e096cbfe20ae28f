"""Every page on a phone, in English (tests/support/phone_walk.py; test_phone_layout_es.py walks
them in Spanish on another worker)."""

import pytest

from ..support.phone_walk import phone_room, walk_every_page
from ..support.phones import PHONES, layout_problems, phone_context

pytestmark = [pytest.mark.browser, pytest.mark.long, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def room(make_table, make_player):
    return phone_room(make_table, make_player)


@pytest.mark.parametrize("language", ["en"])
def test_every_page_fits_a_phone_and_every_control_takes_a_finger(chromium, live_server_url, room, language):
    walk_every_page(chromium, live_server_url, room, language)


TURNING = """<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<style>@media (orientation: landscape) { .wide { width: 1200px; } } @media (max-width: 330px) { button { height: 20px; } }</style>
</head><body><div class="wide">wide in landscape</div><button style="min-width: 60px">small on a small phone</button></body></html>"""


def test_a_page_turned_to_each_size_measures_what_a_page_opened_at_that_size_measures(chromium):
    """The walk opens each page once and turns the phone to every size: a layout that breaks at
    one size only (a media query) is found at that size, as a fresh load there finds it."""
    _, width, height = PHONES[0]
    turned = phone_context(chromium, "http://127.0.0.1", width, height)
    page = turned.new_page()
    page.set_content(TURNING)
    for size, width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        fresh = phone_context(chromium, "http://127.0.0.1", width, height)
        opened = fresh.new_page()
        opened.set_content(TURNING)
        assert layout_problems(page) == layout_problems(opened), size
        fresh.close()
    assert any("wide" in problem for problem in layout_problems(page))  # the last size is landscape
    turned.close()
