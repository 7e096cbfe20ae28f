"""Staff edits of a table in the admin never break a played table (issue 25, item 5)."""

import pytest
from django.urls import reverse

from tables import services
from tables.models import Table

from ..support.tables import running_hand, sit

pytestmark = pytest.mark.django_db

EDITABLE = (
    "name",
    "variant",
    "stake_small",
    "stake_big",
    "seat_count",
    "min_buy_in",
    "max_buy_in",
    "action_seconds",
    "countdown_seconds",
    "reconnect_grace_seconds",
    "sit_out_minutes",
    "time_bank_initial_seconds",
    "time_bank_refill_seconds",
    "time_bank_refill_hands",
    "time_bank_cap_seconds",
)


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser(username="boss", password="x"))
    return client


def _edit(client, table, **changes):
    """Post the admin's change form as staff would: every field as it is, but ``changes``."""
    data = {name: getattr(table, name) for name in EDITABLE}
    data["small_blind_override"] = table.small_blind_override or ""
    data.update(changes)
    data.update({"seats-TOTAL_FORMS": 0, "seats-INITIAL_FORMS": 0, "seats-MIN_NUM_FORMS": 0, "seats-MAX_NUM_FORMS": 0})
    return client.post(reverse("admin:tables_table_change", args=[table.pk]), data)


@pytest.fixture
def played_table(make_player, make_table):
    table = make_table()
    sit(table, make_player(), 5)
    sit(table, make_player(), 6)
    return Table.objects.get(pk=table.pk)


@pytest.mark.parametrize(
    "changes",
    [{"seat_count": 4}, {"stake_small": 5, "stake_big": 10}, {"variant": "limit"}, {"min_buy_in": 100}],
)
def test_the_shape_of_a_table_with_players_seated_cannot_change(staff_client, played_table, changes):
    response = _edit(staff_client, played_table, **changes)
    assert response.status_code == 200  # the form again, with the refusal
    assert "Players are seated at this table" in response.content.decode()
    table = Table.objects.get(pk=played_table.pk)
    assert all(getattr(table, name) == getattr(played_table, name) for name in EDITABLE)
    assert table.version == played_table.version
    # The table still deals, and its page still shows.
    assert services.start_hand_if_due(table_id=table.pk) is not None
    assert staff_client.get(reverse("table", args=[table.pk])).status_code == 200


def test_an_edit_is_never_half_applied(staff_client, played_table):
    _edit(staff_client, played_table, seat_count=4, action_seconds=15)
    assert Table.objects.get(pk=played_table.pk).action_seconds == played_table.action_seconds


def test_the_clock_settings_change_during_a_hand_from_the_next_turn(staff_client, played_table):
    hand = services.start_hand_if_due(table_id=played_table.pk)
    deadline = hand.turn_deadline
    version = Table.objects.get(pk=played_table.pk).version
    response = _edit(staff_client, Table.objects.get(pk=played_table.pk), action_seconds=15, name="Renamed")
    assert response.status_code == 302
    table = Table.objects.get(pk=played_table.pk)
    assert (table.action_seconds, table.name, table.version) == (15, "Renamed", version + 1)
    assert running_hand(table).turn_deadline == deadline  # the running turn keeps its time


def test_an_empty_table_takes_any_edit(staff_client, make_table):
    table = make_table()
    assert _edit(staff_client, table, seat_count=4, stake_small=5, stake_big=10, min_buy_in=100).status_code == 302
    assert Table.objects.get(pk=table.pk).seat_count == 4
