"""RULES 6, the time to act: a click that reached the server before its deadline is never
beaten by the clock because the server was slow to apply it. Real PostgreSQL and the shared
cache; the clock's time is chosen."""

from datetime import timedelta

import pytest

from tables import services
from tables.models import HandEvent, TimeoutRecord
from tables.services import on_time

from ..support.tables import act, running_hand, sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_handed(make_player, make_table):
    """Seat 1 (ann) acts first pre-flop."""
    table = make_table()
    players = [make_player(name) for name in ("ann", "ben", "cid")]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    services.start_hand_if_due(table_id=table.pk)
    return table, players


def _timeouts(table):
    return list(HandEvent.objects.filter(hand__table=table, type="timed_out"))


def test_rule_6_an_action_that_arrived_in_time_is_applied_after_the_deadline(three_handed, assert_audit_clean):
    """The click arrived a second before the deadline; the server applies it only after the
    deadline, and the clock's tick comes first: the clock leaves the turn alone and the
    action is accepted."""
    table, (ann, _ben, _cid) = three_handed
    hand = running_hand(table)
    deadline = hand.turn_deadline
    noted = on_time.action_arrived(
        table_id=table.pk, sequence=hand.sequence, user_id=ann.pk, at=deadline - timedelta(seconds=1)
    )
    assert noted
    late = deadline + timedelta(seconds=2)
    assert services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=late) is None
    assert running_hand(table).sequence == hand.sequence and not _timeouts(table)
    services.act(table_id=table.pk, user=ann, kind="fold", amount=None, sequence=hand.sequence, now=late)
    on_time.action_done(table_id=table.pk, sequence=hand.sequence, user_id=ann.pk)
    assert not _timeouts(table) and not TimeoutRecord.objects.exists()
    assert running_hand(table).turn_seat == 2  # ann folded by her own click, and is not sat out
    assert not table.seats.get(player=ann).pending_sit_out
    assert_audit_clean()


def test_rule_6_an_action_that_arrived_after_the_deadline_is_refused(three_handed, assert_audit_clean):
    table, (ann, _ben, _cid) = three_handed
    hand = running_hand(table)
    deadline = hand.turn_deadline
    on_time.action_arrived(table_id=table.pk, sequence=hand.sequence, user_id=ann.pk, at=deadline)
    services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=deadline + timedelta(seconds=1))
    assert [e.payload["became"] for e in _timeouts(table)] == ["fold"]  # RULES 6.2
    with pytest.raises(services.StaleAction):
        act(table, ann, "call", sequence=hand.sequence)
    assert_audit_clean()


def test_rule_6_another_players_action_on_its_way_does_not_hold_the_clock(three_handed):
    """Only the player to act holds their own turn: a frame from anyone else does not."""
    table, (_ann, ben, _cid) = three_handed
    hand = running_hand(table)
    deadline = hand.turn_deadline
    on_time.action_arrived(
        table_id=table.pk, sequence=hand.sequence, user_id=ben.pk, at=deadline - timedelta(seconds=1)
    )
    services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=deadline)
    assert len(_timeouts(table)) == 1


def test_rule_6_a_done_action_holds_the_clock_no_longer(three_handed):
    """An on-time action that was refused (an illegal amount) is cleared: the clock then runs."""
    table, (ann, _ben, _cid) = three_handed
    hand = running_hand(table)
    deadline = hand.turn_deadline
    on_time.action_arrived(
        table_id=table.pk, sequence=hand.sequence, user_id=ann.pk, at=deadline - timedelta(seconds=1)
    )
    on_time.action_done(table_id=table.pk, sequence=hand.sequence, user_id=ann.pk)
    services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=deadline)
    assert len(_timeouts(table)) == 1
