"""The time to act (RULES 6), with a controlled clock: timeouts, sit-out, reconnect grace, the daily allowance."""

from datetime import timedelta

import pytest

from tables import services
from tables.models import ClockPolicy, Hand, HandEvent, Seat, TimeoutRecord
from tables.services.presence import player_connected, player_disconnected

from ..support.tables import act, running_hand, sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_handed(make_player, make_table):
    """Seats 1 (button, first to sit), 2 (small blind), 3 (big blind); seat 1 acts first pre-flop."""
    table = make_table()
    players = [make_player(name) for name in ("ann", "ben", "cid")]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    hand = services.start_hand_if_due(table_id=table.pk)
    assert (hand.button, hand.turn_seat) == (1, 1)
    return table, players


def _expire(table):
    hand = running_hand(table)
    return services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=hand.turn_deadline)


def _timeouts(table):
    return [e.payload for e in HandEvent.objects.filter(hand__table=table, type="timed_out")]


def test_rule_6_1_the_turn_deadline_is_the_table_time_to_act(three_handed):
    """RULES 6.1: 10 seconds plus a 20-second countdown, both table settings."""
    table, _ = three_handed
    hand = running_hand(table)
    assert hand.turn_deadline - hand.turn_started_at == timedelta(seconds=30)
    assert table.time_to_act == table.action_seconds + table.countdown_seconds == 30


def test_a_turn_cannot_expire_before_its_deadline(three_handed, assert_audit_clean):
    table, _ = three_handed
    hand = running_hand(table)
    early = hand.turn_deadline - timedelta(milliseconds=1)
    assert services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=early) is None
    assert running_hand(table).sequence == hand.sequence and not _timeouts(table)
    assert_audit_clean()


def test_rule_6_2_a_player_with_nothing_in_the_pot_is_folded_and_sat_out(three_handed, assert_audit_clean):
    """RULES 6.2: nothing in the pot -> folded; then sat out of later hands until they come back."""
    table, (ann, ben, _cid) = three_handed
    _expire(table)
    assert _timeouts(table) == [{"type": "timed_out", "seat": 1, "street": "preflop", "became": "fold"}]
    assert running_hand(table).turn_seat == 2
    act(table, ben, "fold")
    assert Seat.objects.get(player=ann).state == Seat.State.SITTING_OUT
    assert TimeoutRecord.objects.get().became == "fold"
    services.sit_in(user=ann, table_id=table.pk, post_big_blind_now=True)
    assert Seat.objects.get(player=ann).state == Seat.State.WAITING_FOR_BIG_BLIND
    assert_audit_clean()


def test_rule_6_2_money_in_the_pot_makes_a_protected_all_in_and_later_bets_a_side_pot(three_handed, assert_audit_clean):
    """RULES 6.2 and 4.1: the small blind times out with 1 chip in: all-in at 1, eligible only for the main pot."""
    table, (ann, ben, cid) = three_handed
    act(table, ann, "call")
    _expire(table)  # ben, small blind, 1 chip in
    assert _timeouts(table)[-1]["became"] == "protected_all_in"
    assert running_hand(table).turn_seat == 3
    act(table, cid, "raise", 6)
    act(table, ann, "call")
    for _ in range(3):  # flop, turn, river: check it down
        act(table, cid, "check")
        act(table, ann, "check")
    hand = Hand.objects.get(table=table, number=1)
    assert hand.state == Hand.State.COMPLETE
    pots = [e.payload for e in HandEvent.objects.filter(hand=hand, type="pot_awarded")]
    assert [(p["amount"], sorted(p["eligible"])) for p in pots] == [(3, [1, 2, 3]), (10, [1, 3])]
    assert Seat.objects.get(player=ben).stack >= 199  # unbet chips stay his; he can win only the main pot
    assert sum(Seat.objects.values_list("stack", flat=True)) == 600
    assert Seat.objects.get(player=ben).state == Seat.State.SITTING_OUT
    assert_audit_clean()


def test_rule_6_3_reconnecting_during_your_turn_gives_grace_once_per_turn(three_handed, assert_audit_clean):
    """RULES 6.3: disconnect and reconnect while the turn has time left: 20 more seconds, once per turn."""
    table, (ann, _ben, cid) = three_handed
    hand = running_hand(table)
    deadline = hand.turn_deadline
    moment = hand.turn_started_at + timedelta(seconds=5)
    player_disconnected(table_id=table.pk, user=ann, now=moment)
    assert player_connected(table_id=table.pk, user=ann, now=moment + timedelta(seconds=2)) is True
    assert running_hand(table).turn_deadline == deadline + timedelta(seconds=20)
    player_disconnected(table_id=table.pk, user=ann, now=moment + timedelta(seconds=3))
    assert player_connected(table_id=table.pk, user=ann, now=moment + timedelta(seconds=4)) is False
    assert running_hand(table).turn_deadline == deadline + timedelta(seconds=20)
    act(table, ann, "call")
    # A new turn (ben's) gets its own grace; a reconnect by someone not to act gets none.
    player_disconnected(table_id=table.pk, user=cid, now=moment + timedelta(seconds=6))
    assert player_connected(table_id=table.pk, user=cid, now=moment + timedelta(seconds=7)) is False
    assert_audit_clean()


def test_rule_6_3_a_player_back_before_their_turn_is_marked_connected_without_the_tables_lock(three_handed):
    """No grace is due to a player whose turn it is not: coming back clears their mark in one
    statement, without locking the table (a start-up of many players opening their tables
    does not queue behind the table's actions); the player whose turn it is still gets 6.3."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table, (ann, _ben, cid) = three_handed
    hand = running_hand(table)
    player_disconnected(table_id=table.pk, user=cid, now=hand.turn_started_at)
    with CaptureQueriesContext(connection) as queries:
        assert player_connected(table_id=table.pk, user=cid, now=hand.turn_started_at) is False
    assert Seat.objects.get(table=table, player=cid).disconnected_at is None
    assert not any("FOR UPDATE" in query["sql"] for query in queries.captured_queries)
    assert len(queries.captured_queries) == 2  # is the mark there; clear it unless it is their turn
    player_disconnected(table_id=table.pk, user=ann, now=hand.turn_started_at + timedelta(seconds=1))
    assert player_connected(table_id=table.pk, user=ann, now=hand.turn_started_at + timedelta(seconds=2)) is True
    assert Seat.objects.get(table=table, player=ann).disconnected_at is None


def test_rule_6_3_no_grace_after_the_time_has_run_out(three_handed):
    table, (ann, _, _) = three_handed
    hand = running_hand(table)
    player_disconnected(table_id=table.pk, user=ann, now=hand.turn_started_at + timedelta(seconds=1))
    assert player_connected(table_id=table.pk, user=ann, now=hand.turn_deadline) is False


def test_rule_6_4_a_disconnected_player_is_timed_out_like_anyone(three_handed, assert_audit_clean):
    """RULES 6.4: a player whose connection is gone is treated by the same deadline."""
    table, (ann, _, _) = three_handed
    player_disconnected(table_id=table.pk, user=ann)
    _expire(table)
    assert _timeouts(table)[0]["became"] == "fold"
    assert_audit_clean()


def _check_down(table):
    while running_hand(table) is not None:
        seat = Seat.objects.get(table=table, number=running_hand(table).turn_seat)
        act(table, seat.player, "check")


def test_past_the_daily_allowance_a_timeout_checks_or_folds(three_handed, assert_audit_clean):
    """The room may limit protected all-ins (RULES 6.2) per player per 24 hours; past it a timeout checks."""
    table, (ann, ben, cid) = three_handed
    policy = ClockPolicy.current()
    policy.protected_all_ins_per_day = 1
    policy.save()
    act(table, ann, "call")
    _expire(table)  # ben's one protected all-in of the day
    act(table, cid, "check")
    _check_down(table)
    assert TimeoutRecord.objects.get(player=ben).became == "protected_all_in"
    Seat.objects.filter(table=table).update(state=Seat.State.PLAYING)  # ben is back
    second = services.start_hand_if_due(table_id=table.pk, now=Hand.objects.get(number=1).ended_at)
    assert (second.button, second.turn_seat) == (2, 2)
    act(table, ben, "call")
    act(table, cid, "call")
    act(table, ann, "check")  # big blind; the flop starts with cid, then ann, then ben
    act(table, cid, "check")
    act(table, ann, "check")
    assert running_hand(table).turn_seat == 2
    _expire(table)  # ben again, chips in the pot, allowance used: he checks instead
    assert [t["became"] for t in _timeouts(table)] == ["protected_all_in"]
    assert list(TimeoutRecord.objects.filter(player=ben).values_list("became", flat=True)) == [
        "check",
        "protected_all_in",
    ]
    assert running_hand(table).turn_seat == 3  # the turn card: ben is still in and will act again
    assert_audit_clean()


def test_run_clock_expires_overdue_turns_and_starts_due_hands(three_handed, assert_audit_clean):
    table, _ = three_handed
    hand = running_hand(table)
    services.run_clock(now=hand.turn_deadline - timedelta(seconds=1))
    assert running_hand(table).sequence == hand.sequence
    services.run_clock(now=hand.turn_deadline)
    assert _timeouts(table)
    assert_audit_clean()


def test_a_cash_table_whose_ready_players_all_closed_it_waits_for_one_of_them(make_player, make_table):
    """No hand is dealt to nobody: while every player who would be dealt in has closed the
    table (their last socket gone), the clock deals nothing there; once one of them is back,
    the next tick deals. A table where one player is here deals as ever (the others then
    time out by RULES 6.2)."""
    from tables.services.clock import run_clock

    table = make_table()
    ann, ben = make_player("ann"), make_player("ben")
    sit(table, ann, 1)
    sit(table, ben, 2)
    for player in (ann, ben):
        player_disconnected(table_id=table.pk, user=player)
    run_clock()
    assert not Hand.objects.filter(table=table).exists()
    assert services.start_hand_if_due(table_id=table.pk) is None  # the dealing service agrees
    player_connected(table_id=table.pk, user=ben)
    run_clock()
    hand = running_hand(table)
    assert hand is not None and sorted(p.seat for p in hand.players.all()) == [1, 2]
