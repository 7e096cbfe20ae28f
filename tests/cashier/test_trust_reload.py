"""Finding 3: a reload with another player's request id used to answer with a server error."""

import pytest
from django.urls import reverse

from cashier import services as cashier
from cashier.models import LedgerTransaction
from cashier.selectors import bankroll_balance

pytestmark = pytest.mark.django_db


def _poor(make_player, django_user_model):
    """A player whose bankroll is down to 400: eligible for a reload."""
    staff = django_user_model.objects.get_or_create(username="staff", defaults={"is_staff": True})[0]
    player = make_player()
    cashier.adjust(user=player, amount=-9_600, reason="test", staff=staff, request_id=f"drain-{player.pk:06d}")
    return player


def test_finding_3_a_reload_with_another_players_request_id_is_refused(client, make_player, django_user_model,
                                                                       assert_ledger_clean):  # fmt: skip
    alice, bob = _poor(make_player, django_user_model), _poor(make_player, django_user_model)
    client.force_login(alice)
    alices_form = client.get(reverse("profile")).context["reload_form"]["request_id"].value()
    client.post(reverse("reload"), {"request_id": alices_form})
    client.force_login(bob)
    response = client.post(reverse("reload"), {"request_id": alices_form}, follow=True)
    assert response.status_code == 200
    assert b"That form is not valid" in response.content
    assert bankroll_balance(bob) == 400
    assert LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.RELOAD).count() == 1
    assert_ledger_clean()


def test_finding_3_request_ids_are_scoped_to_their_player(make_player, django_user_model, assert_ledger_clean):
    """The same nonce used by two players makes two keys: neither finds the other's reload."""
    alice, bob = _poor(make_player, django_user_model), _poor(make_player, django_user_model)
    first = cashier.reload(user=alice, request_id="same-nonce-0001")
    second = cashier.reload(user=bob, request_id="same-nonce-0001")
    assert first.transaction.pk != second.transaction.pk and not second.replayed
    assert bankroll_balance(alice) == bankroll_balance(bob) == 10_000
    again = cashier.reload(user=alice, request_id="same-nonce-0001")
    assert again.replayed and again.amount == 9_600
    assert_ledger_clean()
