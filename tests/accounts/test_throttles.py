"""Per-address limits: sign-ups, failed log-ins (a password spray), and axes' username+address lock.

Addresses come from the documentation ranges (RFC 5737); the test client sends them as
REMOTE_ADDR, which is what daphne fills in behind the proxy (config/client_ip.py).
"""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.models import User
from cashier.models import LedgerTransaction

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "a-Strong-pass-4821"
HOME = "203.0.113.7"
ELSEWHERE = "198.51.100.20"


def _sign_up(username: str, address: str = HOME, password: str = GOOD_PASSWORD):
    # A fresh client each time: a new visitor (sign-up logs the new player in).
    return Client(REMOTE_ADDR=address).post(
        reverse("signup"), {"username": username, "password1": password, "password2": password}
    )


def _log_in(client: Client, username: str, password: str, url: str | None = None):
    return client.post(url or reverse("login"), {"username": username, "password": password})


# --- sign-up ---------------------------------------------------------------------------


def test_the_sixth_signup_from_one_address_in_an_hour_gets_429_and_creates_nothing():
    for number in range(5):
        assert _sign_up(f"crowd{number}").status_code == 302
    transactions = LedgerTransaction.objects.count()
    refused = _sign_up("crowd5")
    assert refused.status_code == 429
    assert b"Too many sign-ups" in refused.content
    assert b"No account was created" in refused.content
    assert int(refused["Retry-After"]) > 0
    assert not User.objects.filter(username="crowd5").exists()
    assert LedgerTransaction.objects.count() == transactions  # no sign-up grant either
    # Another address is not affected.
    assert _sign_up("crowd5", address=ELSEWHERE).status_code == 302


def test_past_the_signup_limit_the_page_says_so_before_the_form_is_filled(settings):
    settings.SIGNUP_RATE = "1/h"
    assert _sign_up("first").status_code == 302
    page = Client(REMOTE_ADDR=HOME).get(reverse("signup"))
    assert page.status_code == 429
    assert b"Too many sign-ups" in page.content and b'name="password1"' not in page.content


def test_the_signup_rate_is_a_setting(settings):
    settings.SIGNUP_RATE = "2/h"
    assert _sign_up("one").status_code == 302
    assert _sign_up("two").status_code == 302
    assert _sign_up("three").status_code == 429
    assert User.objects.filter(username__in=["one", "two", "three"]).count() == 2


def test_signup_forms_sent_back_with_errors_do_not_use_up_the_limit(settings):
    settings.SIGNUP_RATE = "1/h"
    for _ in range(3):
        assert _sign_up("weakling", password="123").status_code == 200
    assert _sign_up("weakling").status_code == 302


def test_signup_counts_live_in_the_cache():
    for number in range(5):
        _sign_up(f"cached{number}")
    assert _sign_up("cached5").status_code == 429
    cache.clear()
    assert _sign_up("cached5").status_code == 302


# --- failed log-ins per address ----------------------------------------------------------


def test_a_password_spray_from_one_address_is_slowed_after_20_failures(make_player):
    make_player(username="target")
    attacker = Client(REMOTE_ADDR=HOME)
    for number in range(20):
        failed = _log_in(attacker, f"user{number}", "Password1!")
        assert failed.status_code == 200  # the form's own "correct username and password" error
    throttled = _log_in(attacker, "target", GOOD_PASSWORD)  # even the right password waits
    assert throttled.status_code == 429
    assert b"Too many failed log-ins have come from your network" in throttled.content
    assert int(throttled["Retry-After"]) > 0
    assert attacker.get(reverse("profile")).status_code == 302  # not logged in
    # The same account from another address is untouched.
    assert _log_in(Client(REMOTE_ADDR=ELSEWHERE), "target", GOOD_PASSWORD).status_code == 302


def test_the_admin_log_in_counts_and_is_throttled_too(settings, django_user_model):
    settings.LOGIN_FAILURE_RATE = "3/15m"
    django_user_model.objects.create_superuser(username="boss", password=GOOD_PASSWORD, email="b@example.com")
    attacker = Client(REMOTE_ADDR=HOME)
    admin_login = reverse("admin:login")
    for number in range(3):
        assert _log_in(attacker, f"staff{number}", "guess", url=admin_login).status_code == 200
    assert _log_in(attacker, "boss", GOOD_PASSWORD, url=admin_login).status_code == 429
    assert _log_in(attacker, "boss", GOOD_PASSWORD).status_code == 429


def test_successful_log_ins_are_not_counted(settings, make_player):
    settings.LOGIN_FAILURE_RATE = "3/15m"
    make_player(username="regular")
    visitor = Client(REMOTE_ADDR=HOME)
    for _ in range(6):
        assert _log_in(visitor, "regular", GOOD_PASSWORD).status_code == 302
        visitor.post(reverse("logout"))
    for _ in range(2):
        assert _log_in(visitor, "regular", "wrong").status_code == 200
    assert _log_in(visitor, "regular", GOOD_PASSWORD).status_code == 302  # 2 failures of 3


def test_the_failed_log_in_rate_is_a_setting_and_lives_in_the_cache(settings):
    settings.LOGIN_FAILURE_RATE = "2/15m"
    visitor = Client(REMOTE_ADDR=HOME)
    assert _log_in(visitor, "nobody1", "x").status_code == 200
    assert _log_in(visitor, "nobody2", "x").status_code == 200
    assert _log_in(visitor, "nobody3", "x").status_code == 429
    cache.clear()
    assert _log_in(visitor, "nobody3", "x").status_code == 200


# --- django-axes: username + address, never the username alone ------------------------------


def test_nobody_can_lock_a_player_out_from_everywhere(settings, make_player):
    make_player(username="victim")
    attacker = Client(REMOTE_ADDR=HOME)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _log_in(attacker, "victim", "wrong")
    locked = _log_in(attacker, "victim", GOOD_PASSWORD)
    assert locked.status_code == 429 and b"locked" in locked.content  # axes: this address, this name
    victim = Client(REMOTE_ADDR=ELSEWHERE)
    assert _log_in(victim, "victim", GOOD_PASSWORD).status_code == 302
    assert victim.get(reverse("profile")).status_code == 200


def test_changing_the_case_of_the_username_does_not_reset_the_lock(settings, make_player):
    make_player(username="casey")
    attacker = Client(REMOTE_ADDR=HOME)
    for variant in ["casey", "Casey", "CASEY", "cAsEy", "caseY"][: settings.AXES_FAILURE_LIMIT]:
        _log_in(attacker, variant, "wrong")
    assert _log_in(attacker, "CaSeY", GOOD_PASSWORD).status_code == 429


def test_made_up_addresses_share_one_bucket(settings):
    """Were the proxy ever to pass a client's own X-Forwarded-For on, rotating made-up values
    would buy no fresh attempts (and no server error)."""
    settings.LOGIN_FAILURE_RATE = "2/15m"
    assert _log_in(Client(REMOTE_ADDR="made-up-1"), "nobody", "x").status_code == 200
    assert _log_in(Client(REMOTE_ADDR="made-up-2"), "nobody", "x").status_code == 200
    assert _log_in(Client(REMOTE_ADDR="made-up-3"), "nobody", "x").status_code == 429
