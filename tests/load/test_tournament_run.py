"""The short version of ``python -m bench.load tournament --players 60``: nine bots over real
websockets play a scheduled tournament at 3-seat tables to the end on a real stack (2 daphne,
a celery worker, beat) sharing the test database and Redis. Each finds its table on the
tournament's page and follows its seat when a table breaks (RULES 8.8) or balancing moves it
(RULES 8.7). Afterwards: one winner, one finishing place per entrant, the prizes sum to the pool
(RULES 8.10), the chips audit is clean (RULES 8.1), no table dealt while it owed a player to
another or had to break, no hand was stuck and no process logged a traceback."""

import pytest
from django.conf import settings

from bench.load.stack import Stack, bench_env
from bench.load.tournament import STATIC_ROOT, collect_static, run_tournament

from ..support.processes import shared_database_url

pytestmark = [pytest.mark.load, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def stack(needs_postgresql, needs_redis, tmp_path):
    env = bench_env(
        database_url=shared_database_url(),
        redis_url=settings.REDIS_URL,
        extra={
            "SECRET_KEY": settings.SECRET_KEY,
            "HAND_PAUSE_SECONDS": "0.3",
            "LOG_LEVEL": "WARNING",
            "STATIC_ROOT": str(STATIC_ROOT),  # the tournament page is rendered with DEBUG=0
        },
    )
    collect_static(env)
    with Stack(env=env, log_dir=tmp_path / "stack", web=2, worker_concurrency=1) as running:
        yield running


def test_nine_bots_play_a_tournament_to_the_end(stack, assert_audit_clean):
    figures = run_tournament(
        stack,
        players=9,
        seats=3,
        starting_chips=60,  # three big blinds of the first level: a few dozen hands
        pace=0.1,
        lead=3.0,
        max_minutes=4,
        log=print,
    )
    print(figures)
    assert not figures["failures"], figures["failures"]
    finish = figures["finish"]
    assert finish["state"] == "finished" and finish["results"] == finish["entrants"] == 9, finish
    assert finish["prizes_paid"] == finish["prize_pool"] == 900, finish
    # Three places paid: three players, or more when players eliminated in the same hand with
    # equal stacks tie for a place and share its prize and those under it (RULES 8.6, 8.9).
    paid = finish["paid_places"]
    assert paid[0] == 1 and paid[-1] <= 3 and finish["places_paid"] >= 3, finish
    assert figures["tables"] == 3 and figures["table_breaks"] == 2, figures  # three tables down to one
    assert figures["start"]["sockets_opened"] == 9 and figures["start"]["first_hands"] == 3, figures["start"]
    moves = figures["balancing_moves"] + figures["players_moved_by_breaks"]
    assert 1 <= figures["moves_followed_by_bots"] <= moves, figures
    assert figures["final_table"]["bots_that_played_it"] >= 2, figures["final_table"]
    assert figures["actions_served"] > 0 and figures["latency_ms"]["whole_run"]["p99"] is not None
    assert figures["tracebacks"] == 0 and figures["audit"]["ok"], figures["server_errors"][:3]
