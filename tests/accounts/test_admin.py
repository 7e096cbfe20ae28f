"""The admin as the operator's console: bankrolls, a read-only ledger, adjustments."""

import pytest
from django.urls import reverse

from cashier import services as cashier
from cashier.models import LedgerEntry, LedgerTransaction
from cashier.selectors import bankroll_balance

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    staff = django_user_model.objects.create_superuser(username="boss", password="x", email="b@example.com")
    client.force_login(staff)
    return client


def _request_id(client, url) -> str:
    """The one-time request id the adjustment form is rendered with."""
    return client.get(url).context["form"]["request_id"].value()


def test_user_list_shows_the_bankroll(staff_client, make_player):
    make_player(username="frank")
    page = staff_client.get(reverse("admin:accounts_user_changelist"))
    assert page.status_code == 200
    assert b"frank" in page.content and b"10000" in page.content


@pytest.mark.parametrize("model", ["ledgertransaction", "ledgerentry", "ledgeraccount"])
def test_the_ledger_is_read_only_in_the_admin(staff_client, make_player, model):
    make_player()
    assert staff_client.get(reverse(f"admin:cashier_{model}_changelist")).status_code == 200
    assert staff_client.get(reverse(f"admin:cashier_{model}_add")).status_code == 403
    transaction = LedgerTransaction.objects.get()
    obj_id = {"ledgertransaction": transaction.pk, "ledgerentry": LedgerEntry.objects.first().pk}.get(
        model, cashier.house_account().pk
    )
    assert (
        staff_client.post(reverse(f"admin:cashier_{model}_delete", args=[obj_id]), {"post": "yes"}).status_code == 403
    )
    assert LedgerTransaction.objects.count() == 1


def test_staff_adjusts_a_bankroll_with_a_reason(staff_client, make_player, assert_ledger_clean):
    player = make_player(username="gina")
    url = reverse("admin:accounts_user_adjust_bankroll", args=[player.pk])
    missing_reason = staff_client.post(url, {"amount": 500, "reason": "", "request_id": _request_id(staff_client, url)})
    assert missing_reason.status_code == 200 and bankroll_balance(player) == 10_000
    form = {"amount": 500, "reason": "tournament prize", "request_id": _request_id(staff_client, url)}
    assert staff_client.post(url, form).status_code == 302
    assert staff_client.post(url, form).status_code == 302  # resubmitted form: applied once
    assert bankroll_balance(player) == 10_500
    adjustment = LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.ADJUSTMENT)
    assert adjustment.memo == "tournament prize" and adjustment.created_by.username == "boss"
    assert_ledger_clean()


def test_adjusting_below_zero_shows_an_error(staff_client, make_player, assert_ledger_clean):
    player = make_player()
    url = reverse("admin:accounts_user_adjust_bankroll", args=[player.pk])
    page = staff_client.post(url, {"amount": -20_000, "reason": "oops", "request_id": _request_id(staff_client, url)})
    assert page.status_code == 200 and b"Not enough chips" in page.content
    assert bankroll_balance(player) == 10_000
    assert_ledger_clean()


def test_table_admin_validates_configuration(staff_client):
    page = staff_client.post(
        reverse("admin:tables_table_add"),
        {
            "name": "Bad",
            "variant": "pot_limit",
            "is_active": "on",
            "stake_small": 1,
            "stake_big": 3,
            "seat_count": 11,
            "min_buy_in": 100,
            "max_buy_in": 50,
            "action_seconds": 10,
            "countdown_seconds": 20,
            "reconnect_grace_seconds": 20,
        },
    )
    assert page.status_code == 200
    for message in [b"2 to 10 players", b"at least the minimum buy-in", b"twice the small blind"]:
        assert message in page.content
