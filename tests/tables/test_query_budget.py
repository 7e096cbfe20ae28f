"""The write path stays small: one player action, with every screen it updates, costs a bounded
number of SQL statements."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import services

from ..support.tables import running_hand, sit

pytestmark = pytest.mark.django_db

# bench/load measures the whole system; this pins the action and its screens in one process.
ACTION_QUERY_BUDGET = 10


def _six_seated(make_player, make_table, monkeypatch) -> tuple:
    """A table with six players seated, and the list every rendering of its screens goes to."""
    from tables.realtime import notify

    published: list = []
    render_screens = notify.screens
    monkeypatch.setattr(notify, "screens", lambda *args: published.append(render_screens(*args)) or published[-1])
    table = make_table()
    players = [make_player() for _ in range(6)]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    return table, players, published


def test_an_action_mid_hand_and_its_screens_cost_at_most_ten_statements(
    make_player, make_table, django_capture_on_commit_callbacks, monkeypatch
):
    table, players, published = _six_seated(make_player, make_table, monkeypatch)
    services.start_hand_if_due(table_id=table.pk)
    by_seat = dict(enumerate(players, start=1))
    counts, log_reads = [], []
    for _ in range(4):  # pre-flop calls: none of them ends the hand or a round
        hand = running_hand(table)
        with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
            services.act(
                table_id=table.pk, user=by_seat[hand.turn_seat], kind="call", amount=None, sequence=hand.sequence
            )
        statements = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
        counts.append(len(statements))
        log_reads.append(sum(sql.startswith('SELECT "tables_handevent"') for sql in statements))
    assert max(counts) <= ACTION_QUERY_BUDGET, counts
    # The deal's commit hooks did not run here, as when another process deals: the first action
    # replays the log; from then on this process holds the hand's engine and reads no log.
    assert log_reads == [1, 0, 0, 0], log_reads
    # And it owns the table (``owned_tables``): the action applied to the rows held and written
    # with their stamp, the lock, the stamp's check and the write in one statement; the screens
    # are rendered from the rows held.
    assert counts[1:] == [1, 1, 1], counts
    # Every action rendered the public screen and each of the six players' own, once.
    assert [len(screens.players) for screens in published] == [6, 6, 6, 6]
    assert [screens.version for screens in published] == sorted({screens.version for screens in published})


def test_a_deal_announced_here_does_not_read_back_who_plays_it(
    make_player, make_table, django_capture_on_commit_callbacks, monkeypatch
):
    """The deal wrote the hand's players: the screens it announces take them from the deal
    (``table_state.keep_hand_players``), not from a read of the rows it has just written."""
    table, _players, published = _six_seated(make_player, make_table, monkeypatch)
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        services.start_hand_if_due(table_id=table.pk)
    assert [len(screens.players) for screens in published] == [6]  # the deal's screens were rendered
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "tables_handplayer"')]
    assert reads == []
