"""RULES 6.5: the protected all-in allowance, 2 per player per rolling 24 hours by default."""

from datetime import datetime, timedelta

import pytest
from django.apps import apps
from django.urls import reverse

from tables import services
from tables.models import ClockPolicy, Seat, TimeoutRecord
from tables.selectors.allowance import forget_allowance_limit

from ..support.tables import act, running_hand, sit

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_policy():
    forget_allowance_limit()
    yield
    forget_allowance_limit()


@pytest.fixture
def three_handed(make_player, make_table):
    """Seats 1 (button, acts first pre-flop), 2 (small blind: ben), 3 (big blind)."""
    table = make_table()
    players = [make_player(name) for name in ("ann", "ben", "cid")]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    services.start_hand_if_due(table_id=table.pk)
    return table, players


def _ben_times_out_with_a_chip_in(table, ann):
    act(table, ann, "call")
    hand = running_hand(table)
    assert hand.turn_seat == 2
    services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=hand.turn_deadline)
    return TimeoutRecord.objects.filter(hand=hand).latest("pk").became


def _used_earlier(player, hand, count, ago=timedelta(hours=1)):
    for _ in range(count):
        record = TimeoutRecord.objects.create(player=player, hand=hand, became="protected_all_in")
        TimeoutRecord.objects.filter(pk=record.pk).update(created_at=hand.started_at - ago)


def test_rule_6_5_the_room_allows_two_protected_all_ins_per_24_hours_by_default(three_handed, assert_audit_clean):
    table, (ann, ben, _cid) = three_handed
    assert ClockPolicy.current().protected_all_ins_per_day == 2
    _used_earlier(ben, running_hand(table), 2)
    assert _ben_times_out_with_a_chip_in(table, ann) == "fold"  # a chip in, nothing free to check: folded
    assert_audit_clean()


def test_rule_6_5_an_all_in_older_than_24_hours_no_longer_counts(three_handed):
    table, (ann, ben, _cid) = three_handed
    _used_earlier(ben, running_hand(table), 1)
    _used_earlier(ben, running_hand(table), 1, ago=timedelta(hours=24, seconds=1))
    assert _ben_times_out_with_a_chip_in(table, ann) == "protected_all_in"


@pytest.mark.parametrize(("limit", "became"), [(0, "fold"), (None, "protected_all_in")])
def test_rule_6_5_the_operator_may_set_none_or_unlimited(three_handed, limit, became):
    table, (ann, ben, _cid) = three_handed
    ClockPolicy.objects.filter(pk=ClockPolicy.current().pk).update(protected_all_ins_per_day=limit)
    _used_earlier(ben, running_hand(table), 5)
    assert _ben_times_out_with_a_chip_in(table, ann) == became


@pytest.mark.parametrize(("typed", "stored"), [("0", 0), ("", None), ("3", 3)])
def test_rule_6_5_staff_set_the_allowance_in_the_admin(client, django_user_model, typed, stored):
    client.force_login(django_user_model.objects.create_superuser(username="boss", password="x"))
    policy = ClockPolicy.current()
    response = client.post(
        reverse("admin:tables_clockpolicy_change", args=[policy.pk]), {"protected_all_ins_per_day": typed}
    )
    assert response.status_code == 302
    assert ClockPolicy.current().protected_all_ins_per_day == stored


def test_rule_6_5_the_migration_moves_an_existing_policy_to_two():
    from importlib import import_module

    migration = import_module("tables.migrations.0014_protected_all_in_allowance")
    ClockPolicy.objects.update_or_create(pk=1, defaults={"protected_all_ins_per_day": None})
    migration.allowance_of_two(apps, None)
    assert ClockPolicy.current().protected_all_ins_per_day == 2


def _left_on_page(client, table) -> str:
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    start = page.index('class="protected-left">') + len('class="protected-left">')
    return page[start : page.index("<", start)]


def test_rule_6_5_the_table_page_tells_the_player_how_many_are_left(
    three_handed, make_table, client, django_capture_on_commit_callbacks
):
    """At every table they sit at, and the count comes back with time, not only with the table."""
    table, (ann, ben, _cid) = three_handed
    other = make_table()
    sit(other, ben, 1)
    client.force_login(ben)
    assert _left_on_page(client, table) == _left_on_page(client, other) == "2"
    with django_capture_on_commit_callbacks(execute=True):
        assert _ben_times_out_with_a_chip_in(table, ann) == "protected_all_in"
    assert _left_on_page(client, table) == _left_on_page(client, other) == "1"
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "data-returns-at=" in page
    # A day later the table has not changed, but the all-in is back.
    for seat in Seat.objects.filter(player=ben):
        seat.protected_all_ins_at = [
            (datetime.fromisoformat(moment) - timedelta(hours=24)).isoformat() for moment in seat.protected_all_ins_at
        ]
        seat.save(update_fields=["protected_all_ins_at"])
    assert _left_on_page(client, table) == "2"
