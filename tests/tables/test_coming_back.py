"""RULES 7.5: coming back to a table within 30 minutes, with at least the stack left with
and the time bank left with (against "ratholing")."""

from datetime import timedelta

import pytest
from django.urls import reverse

from tables import services
from tables.models import Seat, SeatSession, Table
from tables.services.errors import TableError

from ..support.tables import sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def left_with_800(make_player, make_table):
    table = make_table(max_buy_in=1_000, time_bank_initial_seconds=30, time_bank_cap_seconds=60)
    alice = make_player("alice")
    sit(table, alice, 1, buy_in=800)
    Seat.objects.filter(player=alice).update(time_bank_ms=12_000)  # spent some of the bank
    services.leave(user=alice, table_id=table.pk)
    return table, alice


def test_rule_7_5_coming_back_at_once_with_the_minimum_is_refused(left_with_800, assert_audit_clean):
    table, alice = left_with_800
    for buy_in in (40, 799):
        with pytest.raises(TableError, match="at least that many"):
            sit(table, alice, 1, buy_in=buy_in)
    assert not Seat.objects.filter(table=table).exists()
    seat = sit(table, alice, 2, buy_in=800)
    assert (seat.stack, seat.time_bank_ms) == (800, 12_000)  # RULES 7.5: the time bank left with
    assert_audit_clean()


def test_rule_7_5_even_above_the_table_maximum(left_with_800, assert_audit_clean):
    table, alice = left_with_800
    Table.objects.filter(pk=table.pk).update(max_buy_in=200)  # staff lowered it while nobody sat
    with pytest.raises(TableError, match="at least that many"):
        sit(table, alice, 1, buy_in=200)
    with pytest.raises(TableError):
        sit(table, alice, 1, buy_in=801)
    assert sit(table, alice, 1, buy_in=800).stack == 800
    assert_audit_clean()


def test_rule_7_5_after_30_minutes_the_table_range_and_a_full_time_bank_again(left_with_800, assert_audit_clean):
    table, alice = left_with_800
    session = SeatSession.objects.get(player=alice)
    SeatSession.objects.filter(pk=session.pk).update(ended_at=session.ended_at - timedelta(minutes=30, seconds=1))
    seat = sit(table, alice, 1, buy_in=40)
    assert (seat.stack, seat.time_bank_ms) == (40, 30_000)
    assert_audit_clean()


def test_rule_7_5_a_player_who_left_with_less_than_the_minimum_buys_in_as_anyone(make_player, make_table):
    table = make_table()
    bob = make_player()
    sit(table, bob, 1, buy_in=40)
    services.leave(user=bob, table_id=table.pk)
    assert sit(table, bob, 1, buy_in=40).stack == 40


def test_rule_7_5_the_seat_form_asks_for_the_stack_left_with(left_with_800, client):
    table, alice = left_with_800
    client.force_login(alice)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'name="buy_in" inputmode="numeric" min="800" max="1000"' in page
    assert "You left this table with 800 chips" in page
