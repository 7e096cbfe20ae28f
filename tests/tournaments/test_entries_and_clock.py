"""Re-entries and add-ons (RULES 8.1, 8.10), recurring sit & goes, breaks (RULES 8.3) and the
table clock driving tournaments (``tables.services.run_clock``)."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from cashier.selectors import bankroll_balance
from tables import services as table_services
from tables.models import Hand, Seat
from tournaments.errors import TournamentError
from tournaments.models import Entry, Result, Tournament
from tournaments.services import registration
from tournaments.services.clock import tick
from tournaments.services.payouts import prize_pool
from tournaments.services.play import advance

from .support import make_tournament, register, tables_of

pytestmark = pytest.mark.django_db


def scheduled(**options):
    spec = {"kind": Tournament.Kind.SCHEDULED, "starts_at": timezone.now(), "max_entrants": 6}
    spec.update(options)
    return make_tournament(**spec)


def test_the_table_clock_starts_a_scheduled_tournament_and_deals_its_first_hands(make_player):
    tournament = scheduled()
    for player in [make_player() for _ in range(3)]:
        register(tournament, player)
    table_services.run_clock(now=timezone.now() + timedelta(seconds=1))
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING
    [table] = tables_of(tournament)
    assert Hand.objects.filter(table=table, state=Hand.State.RUNNING).exists()


def test_rule_8_12_the_clock_cancels_a_scheduled_tournament_short_of_its_minimum(make_player, assert_audit_clean):
    tournament = scheduled(min_entrants=3)
    alice = make_player()
    before = bankroll_balance(alice)
    register(tournament, alice)
    table_services.run_clock(now=timezone.now() + timedelta(seconds=1))
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.CANCELLED
    assert bankroll_balance(alice) == before
    assert_audit_clean()


def test_rule_8_3_a_scheduled_break_holds_every_table_then_play_resumes(make_player):
    tournament = scheduled(break_every_levels=1, break_minutes=5)
    for player in [make_player() for _ in range(3)]:
        register(tournament, player)
    start = timezone.now() + timedelta(seconds=1)
    table_services.run_clock(now=start)  # starts it
    tournament.refresh_from_db()
    [table] = tables_of(tournament)
    Hand.objects.filter(table=table).update(state=Hand.State.COMPLETE)  # as if its hand ended
    level_end = tournament.level_started_at + timedelta(minutes=10)
    advance(tournament_id=tournament.pk, now=level_end + timedelta(seconds=1))
    tournament.refresh_from_db()
    assert tournament.level == 2 and tournament.break_until == level_end + timedelta(minutes=5)
    assert table_services.start_hand_if_due(table_id=table.pk, now=level_end + timedelta(minutes=1)) is None
    assert table_services.start_hand_if_due(table_id=table.pk, now=level_end + timedelta(minutes=6)) is not None


def test_a_recurring_sit_and_go_opens_the_next_as_it_fills(make_player):
    tournament = make_tournament(recurring=True, max_entrants=2, seats_per_table=2)
    register(tournament, make_player())
    register(tournament, make_player())
    following = Tournament.objects.get(next_of=tournament)
    assert following.state == Tournament.State.REGISTERING
    assert following.levels.count() == tournament.levels.count()


def test_rules_8_1_and_8_10_re_entry_and_add_on_join_the_pool_and_the_player_keeps_one_place(
    make_player, assert_audit_clean
):
    tournament = scheduled(late_registration_levels=2, re_entries=1, add_on_chips=300, add_on_price=50)
    players = [make_player() for _ in range(3)]
    for player in players:
        register(tournament, player)
    tick(timezone.now() + timedelta(seconds=1))  # starts it; no hand dealt yet
    [table] = tables_of(tournament)
    alice = players[0]
    registration.add_on(user=alice, tournament_id=tournament.pk, request_id=uuid.uuid4().hex)
    with pytest.raises(TournamentError):
        registration.add_on(user=alice, tournament_id=tournament.pk, request_id=uuid.uuid4().hex)
    assert Seat.objects.get(table=table, player=alice).stack == 600
    # Alice busts (her chips go to bob: conserved), is placed later, and re-enters once.
    seat = Seat.objects.get(table=table, player=alice)
    bob_seat = Seat.objects.get(table=table, player=players[1])
    bob_seat.stack += seat.stack
    bob_seat.save()
    seat.stack = 0
    seat.save()
    advance(tournament_id=tournament.pk, now=timezone.now() + timedelta(seconds=2))
    assert not Seat.objects.filter(table=table, player=alice).exists()
    assert not Result.objects.filter(tournament=tournament).exists()  # places wait for late registration
    register(tournament, alice)
    with pytest.raises(TournamentError):
        registration.unregister(user=alice, tournament_id=tournament.pk)
    assert Entry.objects.filter(tournament=tournament, player=alice).count() == 2
    assert prize_pool(tournament) == 4 * 100 + 50
    # No third entry.
    seat = Seat.objects.get(table__in=tables_of(tournament), player=alice)
    bob_seat.refresh_from_db()
    bob_seat.stack += seat.stack
    bob_seat.save()
    seat.stack = 0
    seat.save()
    advance(tournament_id=tournament.pk, now=timezone.now() + timedelta(seconds=3))
    with pytest.raises(TournamentError, match="every entry"):
        register(tournament, alice)
    assert_audit_clean()
    # Late registration closes: alice has exactly one place, the last.
    advance(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=25))
    assert list(Result.objects.filter(tournament=tournament).values_list("player_id", "place")) == [(alice.pk, 3)]
    assert_audit_clean()
