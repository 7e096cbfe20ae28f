"""Limit stakes trackers accept (PokerStars' ladder): the demo tables use them, the admin steers to them,
and the export still says what was posted (RULES 2.4, 7.1)."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from tables.engine import Action, ActionKind, Hand, Variant
from tables.history.access import HandRecord
from tables.history.pokerstars import pokerstars_text
from tables.management.commands.seed_demo import DEMO_TABLES
from tables.models import Hand as HandRow
from tables.models import Table
from tables.tracker_stakes import POKERSTARS_LIMIT_LADDER, limit_stakes_trackers_accept, tracker_stakes_problem
from tests.engine.support import make_config, stacked_deck


def test_the_ladder_runs_small_blind_below_small_bet_at_half_the_big_bet():
    for big_bet, (small_blind, small_bet) in POKERSTARS_LIMIT_LADDER.items():
        assert small_bet * 2 == big_bet and 0 < small_blind < small_bet
    assert "10/20" in limit_stakes_trackers_accept()
    assert "15/30 (small blind 10)" in limit_stakes_trackers_accept()


@pytest.mark.parametrize(
    ("stakes", "small_blind", "problem"),
    [
        ((10, 20), 5, None),
        ((2, 4), 1, None),
        ((15, 30), 10, None),
        ((12, 24), 6, "do not know Limit 12/24"),
        ((10, 30), 5, "do not know Limit 10/30"),
        ((15, 30), 7, "expect a small blind of 10"),
    ],
)
def test_stakes_trackers_would_misfile_are_named_with_the_fix(stakes, small_blind, problem):
    found = tracker_stakes_problem(small_bet=stakes[0], big_bet=stakes[1], small_blind=small_blind)
    assert found is None if problem is None else problem in found


def test_every_demo_limit_table_has_stakes_trackers_accept():
    limit_tables = [spec for spec in DEMO_TABLES if spec["variant"] == Table.Variant.LIMIT]
    assert limit_tables
    for spec in limit_tables:
        blinds = Table(**spec).blinds
        assert (
            tracker_stakes_problem(small_bet=blinds.big_blind, big_bet=blinds.big_bet, small_blind=blinds.small_blind)
            is None
        ), spec["name"]


def test_the_stakes_help_text_names_the_ladder():
    help_text = str(Table._meta.get_field("stake_small").help_text)
    assert "trackers" in help_text and "15/30 with small blind 10" in help_text


def table_form(**stakes):
    form = {
        "name": "Limit table",
        "variant": "limit",
        "seat_count": 6,
        "min_buy_in": 100,
        "max_buy_in": 1000,
        "action_seconds": 10,
        "countdown_seconds": 20,
        "reconnect_grace_seconds": 20,
        "time_bank_initial_seconds": 0,
        "time_bank_refill_seconds": 0,
        "time_bank_refill_hands": 10,
        "time_bank_cap_seconds": 0,
        "sit_out_minutes": 10,
        "small_blind_override": "",
        "seats-TOTAL_FORMS": 0,
        "seats-INITIAL_FORMS": 0,
    }
    return form | stakes


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("stakes", "warned"),
    [({"stake_small": 12, "stake_big": 24}, True), ({"stake_small": 10, "stake_big": 20}, False)],
)
def test_the_table_admin_warns_of_stakes_trackers_reject_and_still_saves_them(
    client, django_user_model, stakes, warned
):
    client.force_login(django_user_model.objects.create_superuser(username="boss", password="x"))
    response = client.post(reverse("admin:tables_table_add"), table_form(**stakes), follow=True)
    assert response.status_code == 200
    assert Table.objects.filter(name="Limit table", stake_small=stakes["stake_small"]).exists()
    assert ("Trackers reading PokerStars hand histories do not know" in response.content.decode()) is warned


def test_the_export_says_what_was_posted_whatever_trackers_expect():
    """15/30 with RULES 2.4's small blind (7): the header and the posts are the table's own."""
    config = make_config({1: 300, 2: 300}, variant=Variant.LIMIT, blinds=(7, 15), big_bet=30, button=1)
    hand = Hand(config, stacked_deck(config))
    hand.start()
    hand.apply(Action(1, ActionKind.FOLD))
    row = HandRow(pk=5, table=Table(name="Limit 15/30", seat_count=6), started_at=datetime(2026, 1, 2, tzinfo=UTC))
    lines = pokerstars_text(HandRecord(row, hand.events, None, full_knowledge=True), 123456).splitlines()
    assert lines[0].startswith("PokerStars Hand #123456000000000005:  Omaha Limit (15/30) - ")
    assert "Seat 1: posts small blind 7" in lines and "Seat 2: posts big blind 15" in lines
