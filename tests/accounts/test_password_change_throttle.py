"""The password-change form's old-password check is throttled like the log-in (issue 25, item 15):
a stolen session must not become a way to guess the player's password."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "a-Strong-pass-4821"
NEW_PASSWORD = "another-Good-pass-99"
HOME = "203.0.113.7"
ELSEWHERE = "198.51.100.20"


def _change(client: Client, old: str):
    return client.post(
        reverse("password_change"),
        {"old_password": old, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )


def test_wrong_old_passwords_are_throttled_per_account_even_the_right_one_then_waits(settings, make_player):
    settings.AXES_FAILURE_LIMIT = 5
    player = make_player(username="victim")
    thief = Client(REMOTE_ADDR=HOME)
    thief.force_login(player)
    for attempt in range(5):
        assert _change(thief, f"guess-{attempt}").status_code == 200  # the form's own error
    throttled = _change(thief, GOOD_PASSWORD)
    assert throttled.status_code == 429
    assert b"Too many wrong passwords" in throttled.content
    assert int(throttled["Retry-After"]) > 0
    player.refresh_from_db()
    assert player.check_password(GOOD_PASSWORD)  # no password was checked, nothing changed
    # Another address with the same account waits too: the count is the account's.
    other = Client(REMOTE_ADDR=ELSEWHERE)
    other.force_login(player)
    assert _change(other, GOOD_PASSWORD).status_code == 429


def test_wrong_old_passwords_count_with_the_addresss_failed_log_ins(settings, make_player):
    settings.LOGIN_FAILURE_RATE = "3/15m"
    settings.AXES_FAILURE_LIMIT = 100
    player = make_player(username="owner")
    session = Client(REMOTE_ADDR=HOME)
    session.force_login(player)
    for attempt in range(3):
        assert _change(session, f"guess-{attempt}").status_code == 200
    # The address is now at its failed-log-in limit: the log-in page refuses it too.
    assert (
        Client(REMOTE_ADDR=HOME).post(reverse("login"), {"username": "owner", "password": GOOD_PASSWORD}).status_code
        == 429
    )
    assert _change(session, GOOD_PASSWORD).status_code == 429


def test_a_right_old_password_changes_it_and_counts_nothing(settings, make_player):
    settings.AXES_FAILURE_LIMIT = 2
    player = make_player(username="keeper")
    client = Client(REMOTE_ADDR=HOME)
    client.force_login(player)
    assert _change(client, "one-wrong-guess").status_code == 200
    assert _change(client, GOOD_PASSWORD).status_code == 302
    assert User.objects.get(pk=player.pk).check_password(NEW_PASSWORD)
