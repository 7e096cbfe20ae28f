"""Taking a seat and managing it: table stakes, buy-in limits, bad input changes nothing."""

import uuid

import pytest

from cashier import services as cashier
from cashier.errors import InsufficientChips
from cashier.selectors import bankroll_balance
from tables import services
from tables.models import Seat
from tables.services import TableError

from ..support.tables import sit

pytestmark = pytest.mark.django_db


def test_taking_a_seat_buys_in_from_the_bankroll(make_player, make_table, assert_audit_clean):
    """RULES 7.3: a buy-in between the table's minimum and maximum."""
    table, player = make_table(), make_player()
    seat = sit(table, player, 3, buy_in=120)
    assert (seat.number, seat.stack, seat.state) == (3, 120, Seat.State.WAITING_FOR_BIG_BLIND)
    assert bankroll_balance(player) == 9_880
    assert cashier.table_account(table).balance == 120
    assert_audit_clean()


def _refused(match, make_call, player, assert_audit_clean):
    before_bankroll = bankroll_balance(player)
    before_seats = list(Seat.objects.values_list("pk", "stack"))
    with pytest.raises((TableError, InsufficientChips), match=match):
        make_call()
    assert bankroll_balance(player) == before_bankroll
    assert list(Seat.objects.values_list("pk", "stack")) == before_seats
    assert_audit_clean()


def test_a_taken_seat_is_refused(make_player, make_table, assert_audit_clean):
    table, first, second = make_table(), make_player(), make_player()
    sit(table, first, 2)
    _refused("Seat 2 is taken", lambda: sit(table, second, 2), second, assert_audit_clean)


def test_two_seats_at_one_table_are_refused(make_player, make_table, assert_audit_clean):
    table, player = make_table(), make_player()
    sit(table, player, 1)
    _refused("already have a seat", lambda: sit(table, player, 2), player, assert_audit_clean)


@pytest.mark.parametrize("buy_in", [39, 201])
def test_a_buy_in_outside_the_table_limits_is_refused(buy_in, make_player, make_table, assert_audit_clean):
    table, player = make_table(), make_player()
    _refused("buy-in here is 40 to 200", lambda: sit(table, player, 1, buy_in=buy_in), player, assert_audit_clean)


@pytest.mark.parametrize("buy_in", [-5, 12.5, "100", True])
def test_a_malformed_buy_in_is_refused(buy_in, make_player, make_table, assert_audit_clean):
    table, player = make_table(), make_player()
    _refused(
        "whole, positive number",
        lambda: services.take_seat(
            user=player,
            table_id=table.pk,
            seat_number=1,
            buy_in=buy_in,
            post_big_blind_now=False,
            request_id=uuid.uuid4().hex,
        ),
        player,
        assert_audit_clean,
    )


def test_a_buy_in_above_the_bankroll_is_refused(make_player, make_table, assert_audit_clean):
    table, player = make_table(max_buy_in=20_000, min_buy_in=100), make_player()
    _refused("Not enough chips", lambda: sit(table, player, 1, buy_in=10_001), player, assert_audit_clean)


@pytest.mark.parametrize("seat_number", [0, 7, "2", None])
def test_a_seat_number_off_the_table_is_refused(seat_number, make_player, make_table, assert_audit_clean):
    table, player = make_table(seat_count=6), make_player()
    _refused("numbered 1 to 6", lambda: sit(table, player, seat_number), player, assert_audit_clean)


def test_an_inactive_table_is_refused(make_player, make_table, assert_audit_clean):
    table, player = make_table(is_active=False), make_player()
    _refused("closed", lambda: sit(table, player, 1), player, assert_audit_clean)


def test_a_double_submitted_seat_request_applies_once(make_player, make_table, assert_audit_clean):
    table, player = make_table(), make_player()
    request = {
        "user": player,
        "table_id": table.pk,
        "seat_number": 1,
        "buy_in": 100,
        "post_big_blind_now": False,
        "request_id": "form-0001",
    }
    first = services.take_seat(**request)
    _refused("already made", lambda: services.take_seat(**request), player, assert_audit_clean)
    assert Seat.objects.get(player=player).pk == first.pk
    assert bankroll_balance(player) == 9_900


def test_top_up_between_hands_adds_to_the_stack_up_to_the_maximum(make_player, make_table, assert_audit_clean):
    """RULES 3.8: chips are added between hands, up to the table maximum."""
    table, player = make_table(), make_player()
    sit(table, player, 1, buy_in=100)
    seat = services.top_up(user=player, table_id=table.pk, amount=100, request_id="top-up-0001")
    assert seat.stack == 200
    with pytest.raises(TableError, match="at most 0 chips"):
        services.top_up(user=player, table_id=table.pk, amount=1, request_id="top-up-0002")
    assert bankroll_balance(player) == 9_800
    assert_audit_clean()


def test_leaving_between_hands_cashes_out(make_player, make_table, assert_audit_clean):
    table, player = make_table(), make_player()
    sit(table, player, 1, buy_in=150)
    assert services.leave(user=player, table_id=table.pk) is None
    assert not Seat.objects.filter(table=table).exists()
    assert bankroll_balance(player) == 10_000
    assert cashier.table_account(table).balance == 0
    assert_audit_clean()


def test_requests_for_a_seat_you_do_not_have_are_refused(make_player, make_table, assert_audit_clean):
    table, player = make_table(), make_player()
    for call in (services.sit_out, services.leave):
        with pytest.raises(TableError, match="no seat"):
            call(user=player, table_id=table.pk)
    with pytest.raises(TableError, match="does not exist"):
        services.sit_out(user=player, table_id=999_999)
    assert_audit_clean()
