"""One table's error never stops the clock for the others (issue 25, item 4)."""

import logging

import pytest

from tables.models import Hand, Table
from tables.services import clock
from tables.tasks import tick

from ..support.tables import running_hand, sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def poisoned_and_healthy(make_player, make_table):
    """Two tables due to deal: the first (clocked first) is poisoned, left in a state no rule
    covers (players in seats 5 and 6 of a table cut to 4 seats behind the services' back)."""
    poisoned, healthy = make_table(), make_table()
    sit(poisoned, make_player(), 5)
    sit(poisoned, make_player(), 6)
    Table.objects.filter(pk=poisoned.pk).update(seat_count=4)
    sit(healthy, make_player(), 1)
    sit(healthy, make_player(), 2)
    clock.table_failures.clear()
    clock._failing.clear()
    return poisoned, healthy


def test_a_poisoned_table_leaves_the_others_dealing(poisoned_and_healthy, caplog, assert_audit_clean):
    poisoned, healthy = poisoned_and_healthy
    assert poisoned.pk < healthy.pk
    with caplog.at_level(logging.WARNING, logger="tables.services.clock"):
        tick()
        tick()
    assert running_hand(healthy) is not None
    assert not Hand.objects.filter(table=poisoned).exists()
    assert clock.table_failures[poisoned.pk] == 2 and healthy.pk not in clock.table_failures
    # Logged once, with the table id and the traceback, however many ticks it fails.
    records = [r for r in caplog.records if r.name == "tables.services.clock"]
    assert len(records) == 1 and records[0].exc_info is not None and str(poisoned.pk) in records[0].getMessage()
    assert_audit_clean()


def test_an_error_of_the_database_for_one_table_only_is_that_table_s(poisoned_and_healthy, monkeypatch):
    """A statement that fails for one table (here: a lock it may not wait for) leaves the database
    up: the other tables deal; only a database that is away ends the tick."""
    from django.db import OperationalError

    poisoned, healthy = poisoned_and_healthy
    real_start = clock.start_hand_if_due

    def start_or_fail(*, table_id, now=None):
        if table_id == poisoned.pk:
            raise OperationalError("canceling statement due to lock timeout")
        return real_start(table_id=table_id, now=now)

    monkeypatch.setattr(clock, "start_hand_if_due", start_or_fail)
    clock.run_clock()
    assert running_hand(healthy) is not None and clock.table_failures[poisoned.pk] == 1


def test_a_poisoned_turn_leaves_the_other_turns_expiring(make_player, make_table, monkeypatch, assert_audit_clean):
    """A step that raises half-way is rolled back whole, and the next table's turn still expires."""
    first, second = make_table(), make_table()
    for table in (first, second):
        sit(table, make_player(), 1)
        sit(table, make_player(), 2)
    tick()
    hands = {table.pk: running_hand(table) for table in (first, second)}
    real_expire = clock.expire_turn

    def expire_or_raise(*, table_id, sequence, now=None):
        result = real_expire(table_id=table_id, sequence=sequence, now=now)
        if table_id == first.pk:
            raise RuntimeError("a bug after the write")
        return result

    monkeypatch.setattr(clock, "expire_turn", expire_or_raise)
    clock.run_clock(now=max(hand.turn_deadline for hand in hands.values()))
    assert running_hand(first).sequence == hands[first.pk].sequence  # nothing half-applied
    assert Hand.objects.get(pk=hands[second.pk].pk).sequence > hands[second.pk].sequence
    assert_audit_clean()
