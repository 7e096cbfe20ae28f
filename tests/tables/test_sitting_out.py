"""RULES 7.6: a seat cannot be held idle by sitting out."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cashier.selectors import bankroll_balance
from tables import services
from tables.models import Seat, WaitingListEntry
from tables.services.sitting_out import tables_with_idle_seats

from ..support.tables import fold_to_the_end, running_hand, sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_sits_out(heads_up):
    table, alice, bob = heads_up
    services.sit_out(user=alice, table_id=table.pk)
    return table, alice, bob, Seat.objects.get(player=alice).sat_out_at


def test_rule_7_6_sitting_out_for_10_minutes_stands_the_player_up(alice_sits_out, assert_audit_clean):
    table, alice, bob, since = alice_sits_out
    assert since is not None and table.sit_out_minutes == 10
    services.run_clock(now=since + timedelta(minutes=9, seconds=59))
    assert Seat.objects.filter(player=alice).exists()
    services.run_clock(now=since + timedelta(minutes=10))
    assert not Seat.objects.filter(player=alice).exists()  # stood up and cashed out
    assert bankroll_balance(alice) == 10_000
    assert Seat.objects.filter(player=bob).exists()
    assert_audit_clean()


def test_rule_7_6_the_limit_is_a_table_setting(alice_sits_out):
    table, alice, _bob, since = alice_sits_out
    table.sit_out_minutes = 3
    table.save(update_fields=["sit_out_minutes"])
    services.run_clock(now=since + timedelta(minutes=3))
    assert not Seat.objects.filter(player=alice).exists()


def test_rule_7_6_the_clock_finds_only_the_tables_with_a_seat_past_its_limit(alice_sits_out):
    """The clock asks the database which tables have a seat sat out past the table's own limit
    (every second: the players within theirs are not read), to the microsecond."""
    table, _alice, _bob, since = alice_sits_out
    assert tables_with_idle_seats(now=since + timedelta(minutes=9, seconds=59, microseconds=999_999)) == set()
    assert tables_with_idle_seats(now=since + timedelta(minutes=10)) == {table.pk}
    table.sit_out_minutes = 30
    table.save(update_fields=["sit_out_minutes"])
    assert tables_with_idle_seats(now=since + timedelta(minutes=29)) == set()
    assert tables_with_idle_seats(now=since + timedelta(minutes=30)) == {table.pk}


def test_rule_7_6_coming_back_in_time_keeps_the_seat(alice_sits_out):
    table, alice, _bob, since = alice_sits_out
    services.sit_in(user=alice, table_id=table.pk, post_big_blind_now=False)
    assert Seat.objects.get(player=alice).sat_out_at is None
    services.run_clock(now=since + timedelta(hours=1))
    assert Seat.objects.filter(player=alice).exists()


def test_rule_7_6_a_timed_out_player_sat_out_by_the_clock_counts_from_the_hand_end(three_players, assert_audit_clean):
    table, (ann, ben, cid), _dan = three_players
    hand = running_hand(table)
    services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=hand.turn_deadline)  # ann, RULES 6.2
    fold_to_the_end(table, {2: ben, 3: cid})
    seat = Seat.objects.get(player=ann)
    assert seat.state == Seat.State.SITTING_OUT and seat.sat_out_at is not None
    services.run_clock(now=seat.sat_out_at + timedelta(minutes=10))
    assert not Seat.objects.filter(player=ann).exists()
    assert_audit_clean()


@pytest.fixture
def three_players(make_player, make_table):
    """A full 3-seat table in its first hand (button 1: ann, small blind 2: ben, big blind 3: cid);
    dan is not on its waiting list yet."""
    table = make_table(seat_count=3)
    players = [make_player(name) for name in ("ann", "ben", "cid")]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    services.start_hand_if_due(table_id=table.pk)
    return table, players, make_player("dan")


def test_rule_7_6_sitting_out_when_the_big_blind_comes_round_with_players_waiting(three_players, assert_audit_clean):
    table, (ann, ben, cid), dan = three_players
    services.join_waiting_list(user=dan, table_id=table.pk)
    services.sit_out(user=ann, table_id=table.pk)  # after this hand; the next big blind is seat 1's
    fold_to_the_end(table, {1: ann, 2: ben, 3: cid})
    assert Seat.objects.get(player=ann).state == Seat.State.SITTING_OUT
    second = services.start_hand_if_due(table_id=table.pk, now=timezone.now())
    assert {setup["seat"] for setup in second.config["seats"]} == {2, 3}
    assert not Seat.objects.filter(player=ann).exists()  # stood up, the seat offered to dan
    assert WaitingListEntry.objects.get(player=dan).offered_until is not None
    assert bankroll_balance(ann) == 10_000  # the button folded: her whole buy-in back
    assert_audit_clean()


def test_rule_7_6_without_anyone_waiting_the_big_blind_passes_and_the_seat_stays(three_players):
    table, (ann, ben, cid), _dan = three_players
    services.sit_out(user=ann, table_id=table.pk)
    fold_to_the_end(table, {1: ann, 2: ben, 3: cid})
    assert services.start_hand_if_due(table_id=table.pk) is not None
    assert Seat.objects.get(player=ann).state == Seat.State.SITTING_OUT


@pytest.mark.parametrize("waiting", [True, False])
def test_rule_7_6_a_deal_tells_the_lobby_only_when_it_stands_a_player_up(
    three_players, waiting, monkeypatch, django_capture_on_commit_callbacks
):
    """The lobby's line shows the seats taken and the average pot of the hands played: a deal
    changes it only when it stood up a player passed by the big blind, and only then does its
    change ask for the line (read and rendered in every language, sent to every lobby)."""
    from tables.services import changes

    table, (ann, ben, cid), dan = three_players
    if waiting:
        services.join_waiting_list(user=dan, table_id=table.pk)
    services.sit_out(user=ann, table_id=table.pk)
    fold_to_the_end(table, {1: ann, 2: ben, 3: cid})
    announced = []
    monkeypatch.setattr(changes, "_listeners", [announced.append])
    with django_capture_on_commit_callbacks(execute=True):
        assert services.start_hand_if_due(table_id=table.pk, now=timezone.now()) is not None
    assert Seat.objects.filter(player=ann).exists() is not waiting
    assert [change.lobby for change in announced] == [waiting]
