"""Sign-up, log-in, lock-out, password change, the profile and reload pages."""

import pytest
from django.urls import reverse

from accounts.models import User
from cashier import services as cashier
from cashier.models import LedgerTransaction
from cashier.selectors import bankroll_balance

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "a-Strong-pass-4821"


def test_the_user_model_is_ours():
    from django.contrib.auth import get_user_model

    assert get_user_model() is User


def test_signup_creates_a_player_with_the_grant_and_logs_in(client, assert_ledger_clean):
    response = client.post(
        reverse("signup"), {"username": "alice", "password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD}
    )
    assert response.status_code == 302
    alice = User.objects.get(username="alice")
    assert bankroll_balance(alice) == 10_000
    profile = client.get(reverse("profile"))
    assert b"10,000 chips" in profile.content
    assert b"Sign-up grant" in profile.content
    assert_ledger_clean()


def test_signup_with_a_weak_password_creates_nothing(client):
    response = client.post(reverse("signup"), {"username": "bob", "password1": "123", "password2": "123"})
    assert response.status_code == 200
    assert b"too short" in response.content or b"too common" in response.content
    assert not User.objects.filter(username="bob").exists()
    assert not LedgerTransaction.objects.exists()


def test_login_and_logout(client, make_player):
    make_player(username="carol")
    response = client.post(reverse("login"), {"username": "carol", "password": GOOD_PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("profile")).status_code == 302


def test_repeated_wrong_passwords_lock_the_login_out(client, make_player, settings):
    make_player(username="dave")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "dave", "password": "wrong"})
    locked = client.post(reverse("login"), {"username": "dave", "password": GOOD_PASSWORD})
    assert locked.status_code == 429
    assert b"Too many failed log-ins" in locked.content
    assert client.get(reverse("profile")).status_code == 302


def test_password_change(client, make_player):
    player = make_player(username="erin")
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": GOOD_PASSWORD,
            "new_password1": "another-Good-pass-99",
            "new_password2": "another-Good-pass-99",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("another-Good-pass-99")


def test_reload_page_refuses_when_not_eligible(client, make_player, assert_ledger_clean):
    player = make_player()
    client.force_login(player)
    page = client.get(reverse("profile"))
    assert b"Reloads are for players with fewer than 1,000 chips, tables included." in page.content
    response = client.post(
        reverse("reload"), {"request_id": page.context["reload_form"]["request_id"].value()}, follow=True
    )
    assert b"Reloads are for players with fewer than" in response.content
    assert bankroll_balance(player) == 10_000
    assert_ledger_clean()


def test_reload_form_submitted_twice_reloads_once(client, make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table(max_buy_in=10_000)
    cashier.buy_in(user=player, table=table, amount=9_600, occupancy="seat-session:1", request_id="request-0015")
    client.force_login(player)
    form = {"request_id": client.get(reverse("profile")).context["reload_form"]["request_id"].value()}
    client.post(reverse("reload"), form)
    second = client.post(reverse("reload"), form, follow=True)
    assert bankroll_balance(player) == 10_000
    assert LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.RELOAD).count() == 1
    assert b"That reload was already made." in second.content
    assert_ledger_clean()


def test_stale_or_forged_reload_form_is_refused(client, make_player):
    client.force_login(make_player())
    response = client.post(reverse("reload"), {"request_id": "not-a-uuid"}, follow=True)
    assert b"That form is not valid" in response.content
    assert not LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.RELOAD).exists()
