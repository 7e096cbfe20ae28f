"""Crash recovery from the event log, and one writer at a time per table (real PostgreSQL)."""

import os
import subprocess
import sys
from functools import partial

import pytest

from tables import services
from tables.models import Hand, HandEvent, Seat
from tables.selectors.hands import rebuild
from tables.services import StaleAction

from ..support.processes import ROOT, shared_database_url
from ..support.races import at_once
from ..support.tables import act, running_hand

# A crashed worker process shares the test database; the races need real row locks.
pytestmark = [pytest.mark.usefixtures("needs_postgresql"), pytest.mark.django_db(transaction=True)]

CRASHING_WORKER = """
import os, signal, django
django.setup()
from tables import services
from tables.models import Hand, Seat
hand = Hand.objects.get(state="running")
seat = Seat.objects.get(table=hand.table, number=hand.turn_seat)
services.act(table_id=hand.table_id, user=seat.player, kind="call", amount=None, sequence=hand.sequence)
os.kill(os.getpid(), signal.SIGKILL)  # die between actions, without any cleanup
"""


def test_a_hand_interrupted_by_a_crash_resumes_from_its_events(heads_up, assert_audit_clean):
    table, alice, bob = heads_up
    started = services.start_hand_if_due(table_id=table.pk)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": shared_database_url()}
    worker = subprocess.run([sys.executable, "-c", CRASHING_WORKER], cwd=ROOT, env=env, capture_output=True, text=True)
    assert worker.returncode == -9, worker.stderr
    hand = running_hand(table)
    assert hand.sequence == started.sequence + 1 and hand.turn_seat == 2  # the call was committed before the crash
    engine = rebuild(hand)
    assert engine.to_act == 2 and engine.stacks == {1: 198, 2: 198}
    act(table, bob, "check")  # the hand carries on in this process
    act(table, bob, "bet", 4)
    act(table, alice, "fold")
    assert Hand.objects.get(pk=hand.pk).state == Hand.State.COMPLETE
    assert dict(Seat.objects.values_list("number", "stack")) == {1: 198, 2: 202}
    assert_audit_clean()


def test_the_same_action_fired_twice_at_once_applies_once(heads_up, assert_audit_clean):
    table, alice, _bob = heads_up
    services.start_hand_if_due(table_id=table.pk)
    sequence = running_hand(table).sequence
    click = lambda: services.act(table_id=table.pk, user=alice, kind="raise", amount=6, sequence=sequence)  # noqa: E731
    outcomes = at_once([click, click])
    assert sorted(type(o).__name__ for o in outcomes) == ["Hand", "StaleAction"], outcomes
    hand = running_hand(table)
    assert hand.sequence == sequence + 1
    raises = [e for e in HandEvent.objects.filter(hand=hand, type="player_acted") if e.payload["kind"] == "raise"]
    assert len(raises) == 1
    assert_audit_clean()


def test_a_click_and_a_timeout_at_the_deadline_never_both_apply(heads_up, assert_audit_clean):
    """RULES 6.2 against a click at the same instant: exactly one of them applies."""
    table, alice, bob = heads_up
    for _ in range(5):
        hand = services.start_hand_if_due(table_id=table.pk)
        hand.refresh_from_db()
        sequence, deadline = hand.sequence, hand.turn_deadline
        actor = alice if hand.turn_seat == 1 else bob
        outcomes = at_once(
            [
                partial(services.act, table_id=table.pk, user=actor, kind="fold", amount=None, sequence=sequence),
                partial(services.expire_turn, table_id=table.pk, sequence=sequence, now=deadline),
            ]
        )
        applied = [o for o in outcomes if isinstance(o, Hand)]
        assert len(applied) == 1, outcomes
        assert isinstance(outcomes[0], (Hand, StaleAction)) and (outcomes[1] is None or isinstance(outcomes[1], Hand))
        assert running_hand(table) is None  # a heads-up fold or timeout-fold ends the hand
        assert_audit_clean()
        # Bring a timed-out player back and skip the pause (the timeout ran at the future deadline).
        Seat.objects.filter(table=table).update(state=Seat.State.PLAYING, pending_sit_out=False)
        type(table).objects.filter(pk=table.pk).update(next_hand_at=None)
