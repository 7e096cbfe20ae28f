"""Every page on a phone, in English (tests/support/phone_walk.py; test_phone_layout_es.py walks
them in Spanish on another worker)."""

import pytest

from ..support.phone_walk import phone_room, walk_every_page

pytestmark = [pytest.mark.browser, pytest.mark.long, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def room(make_table, make_player):
    return phone_room(make_table, make_player)


@pytest.mark.parametrize("language", ["en"])
def test_every_page_fits_a_phone_and_every_control_takes_a_finger(chromium, live_server_url, room, language):
    walk_every_page(chromium, live_server_url, room, language)
