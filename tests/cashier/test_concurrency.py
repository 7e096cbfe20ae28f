"""Races on a real PostgreSQL: row locks and idempotency keys hold under threads."""

import pytest

from cashier import services as cashier
from cashier.errors import CashierError
from cashier.selectors import bankroll_balance

from ..support.races import at_once

# Real row locks: on the embedded default's in-memory SQLite the threads find the tables locked.
pytestmark = [pytest.mark.usefixtures("needs_postgresql"), pytest.mark.django_db(transaction=True)]


def test_two_buy_ins_racing_for_the_same_chips_only_one_wins(make_player, make_table, assert_ledger_clean):
    player = make_player()
    tables = [make_table(max_buy_in=10_000), make_table(max_buy_in=10_000)]
    outcomes = at_once(
        [
            lambda t=t, i=i: cashier.buy_in(
                user=player, table=t, amount=7_000, occupancy=f"seat-session:{i + 1}", request_id=f"race-{i}-0013"
            )
            for i, t in enumerate(tables)
        ],
        expected=CashierError,
    )
    wins = [o for o in outcomes if isinstance(o, cashier.Transfer)]
    losses = [o for o in outcomes if isinstance(o, CashierError)]
    assert len(wins) == 1 and len(losses) == 1, outcomes
    assert "Not enough chips" in str(losses[0])
    assert bankroll_balance(player) == 3_000
    assert_ledger_clean()


def test_the_same_request_fired_twice_at_once_applies_once(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    outcomes = at_once(
        [
            lambda: cashier.buy_in(
                user=player, table=table, amount=100, occupancy="seat-session:1", request_id="request-0014"
            )
        ]
        * 4,
        expected=CashierError,
    )
    assert all(isinstance(o, cashier.Transfer) for o in outcomes), outcomes
    assert len({o.transaction.pk for o in outcomes}) == 1
    assert sorted(o.replayed for o in outcomes) == [False, True, True, True]
    assert bankroll_balance(player) == 9_900
    assert_ledger_clean()
