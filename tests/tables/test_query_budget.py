"""The write path stays small: one player action costs a bounded number of SQL statements."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import services

from .conftest import running, sit

pytestmark = pytest.mark.django_db

ACTION_QUERY_BUDGET = 10  # bench/load measures the whole system; this pins the service alone


def test_an_action_mid_hand_costs_at_most_ten_statements(make_player, make_table):
    table = make_table()
    players = [make_player() for _ in range(6)]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    services.start_hand_if_due(table_id=table.pk)
    by_seat = dict(enumerate(players, start=1))
    counts = []
    for _ in range(4):  # pre-flop calls: none of them ends the hand or a round
        hand = running(table)
        with CaptureQueriesContext(connection) as queries:
            services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind="call", amount=None,
                         sequence=hand.sequence)
        counts.append(len([q for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]))
    assert max(counts) <= ACTION_QUERY_BUDGET, counts
