"""Closing an account while entered in a tournament (RULES 8.1, 8.12): refused until the player
unregisters or the tournament ends, so no refund or prize is ever owed to a closed bankroll."""

import pytest

from accounts.closing import DepartureRefused, close_account
from cashier.selectors import bankroll_balance
from tournaments.services import registration

from .support import make_tournament, register

pytestmark = pytest.mark.django_db


def test_rule_8_12_closing_is_refused_while_registered_and_works_once_unregistered(make_player, assert_audit_clean):
    tournament = make_tournament(max_entrants=3)
    alice = make_player("alice")
    register(tournament, alice)
    paid = bankroll_balance(alice)
    with pytest.raises(DepartureRefused, match="tournament"):
        close_account(user=alice)
    alice.refresh_from_db()
    assert alice.closed_at is None and bankroll_balance(alice) == paid  # nothing changed
    registration.unregister(user=alice, tournament_id=tournament.pk)
    close_account(user=alice)
    alice.refresh_from_db()
    assert alice.closed_at is not None and bankroll_balance(alice) == 0
    assert_audit_clean()
