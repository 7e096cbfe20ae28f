"""The waiting list of a full table: order, the 30-second offer of a seat that frees, its expiry."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services
from tables.models import Seat, WaitingListEntry
from tables.selectors.lobby import lobby_row
from tables.services.errors import TableError
from tables.services.waiting_list import expire_offers

from ..support.tables import sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_table(make_table, make_player):
    """A heads-up table with both seats taken."""
    table = make_table(seat_count=2)
    alice, bob = make_player("alice"), make_player("bob")
    sit(table, alice, 1)
    sit(table, bob, 2)
    return table, alice, bob


def _line(table):
    return list(WaitingListEntry.objects.filter(table=table).values_list("player__username", "offered_until"))


def test_players_wait_in_the_order_they_joined_and_the_lobby_shows_how_many(full_table, make_player):
    table, _alice, _bob = full_table
    for name in ("carol", "dave", "erin"):
        services.join_waiting_list(user=make_player(name), table_id=table.pk)
    assert [name for name, _ in _line(table)] == ["carol", "dave", "erin"]
    assert lobby_row(table.pk).waiting == 3


def test_joining_is_refused_with_a_free_seat_twice_or_seated(full_table, make_player, make_table):
    table, alice, _bob = full_table
    carol = make_player("carol")
    services.join_waiting_list(user=carol, table_id=table.pk)
    with pytest.raises(TableError, match="already on the waiting list"):
        services.join_waiting_list(user=carol, table_id=table.pk)
    with pytest.raises(TableError, match="already have a seat"):
        services.join_waiting_list(user=alice, table_id=table.pk)
    with pytest.raises(TableError, match="A seat is free"):
        services.join_waiting_list(user=carol, table_id=make_table().pk)
    assert len(_line(table)) == 1


def test_a_freed_seat_is_offered_to_the_first_in_line_and_held_for_them(full_table, make_player, settings):
    table, alice, _bob = full_table
    settings.WAITING_LIST_OFFER_SECONDS = 30
    carol, dave = make_player("carol"), make_player("dave")
    services.join_waiting_list(user=carol, table_id=table.pk)
    services.join_waiting_list(user=dave, table_id=table.pk)
    before = timezone.now()
    services.leave(user=alice, table_id=table.pk)
    (first, offered), (second, not_offered) = _line(table)
    assert (first, second, not_offered) == ("carol", "dave", None)
    assert before + timedelta(seconds=30) <= offered <= timezone.now() + timedelta(seconds=30)
    with pytest.raises(TableError, match="offered to the next player"):
        sit(table, dave, 1)  # held for carol
    with pytest.raises(TableError, match="offered to the next player"):
        sit(table, make_player("frank"), 1)
    assert not Seat.objects.filter(table=table, number=1).exists()
    sit(table, carol, 1)
    assert [name for name, _ in _line(table)] == ["dave"]  # carol's place is used


def test_an_offer_that_runs_out_goes_to_the_next_in_line(full_table, make_player):
    table, alice, _bob = full_table
    carol, dave = make_player("carol"), make_player("dave")
    services.join_waiting_list(user=carol, table_id=table.pk)
    services.join_waiting_list(user=dave, table_id=table.pk)
    services.leave(user=alice, table_id=table.pk)
    offered_until = _line(table)[0][1]
    expire_offers(now=offered_until - timedelta(seconds=1))
    assert [name for name, _ in _line(table)] == ["carol", "dave"]  # not yet
    services.run_clock(now=offered_until)
    [(name, until)] = _line(table)
    assert name == "dave" and until == offered_until + timedelta(seconds=30)
    sit(table, dave, 1, post_now=False)  # dave may take it now; carol has lost her place
    assert _line(table) == []


def test_leaving_the_list_passes_the_offer_on(full_table, make_player):
    table, alice, _bob = full_table
    carol, dave = make_player("carol"), make_player("dave")
    services.join_waiting_list(user=carol, table_id=table.pk)
    services.join_waiting_list(user=dave, table_id=table.pk)
    services.leave(user=alice, table_id=table.pk)
    services.leave_waiting_list(user=carol, table_id=table.pk)
    [(name, until)] = _line(table)
    assert name == "dave" and until is not None
    with pytest.raises(TableError, match="not on the waiting list"):
        services.leave_waiting_list(user=carol, table_id=table.pk)
