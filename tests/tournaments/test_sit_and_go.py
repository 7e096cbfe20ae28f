"""A sit & go from registration to prizes, through the services (RULES 8.1-8.6, 8.10, 8.12)."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from cashier.selectors import bankroll_balance
from tables import services as table_services
from tables.models import Seat
from tables.services.errors import TableError
from tournaments.errors import TournamentError
from tournaments.models import Entry, Result, Tournament
from tournaments.services import registration
from tournaments.services.cancel import cancel

from .support import make_tournament, play_round, register, tables_of

pytestmark = pytest.mark.django_db


def test_rule_8_1_registering_moves_buy_in_to_the_prize_pool_and_fee_to_the_house(make_player, assert_audit_clean):
    tournament = make_tournament()
    alice = make_player()
    before = bankroll_balance(alice)
    register(tournament, alice)
    assert bankroll_balance(alice) == before - 110
    assert tournament.prize_pool_account.balance == 100
    assert_audit_clean()


def test_rule_8_12_unregistering_before_the_start_refunds_buy_in_and_fee_once(make_player, assert_audit_clean):
    tournament = make_tournament()
    alice = make_player()
    before = bankroll_balance(alice)
    register(tournament, alice)
    registration.unregister(user=alice, tournament_id=tournament.pk)
    assert bankroll_balance(alice) == before
    with pytest.raises(TournamentError):
        registration.unregister(user=alice, tournament_id=tournament.pk)
    assert bankroll_balance(alice) == before
    assert_audit_clean()


def test_registering_twice_or_when_full_is_refused_and_changes_nothing(make_player, assert_audit_clean):
    tournament = make_tournament(max_entrants=2, min_entrants=2, seats_per_table=2)
    alice, bob, carol = make_player(), make_player(), make_player()
    register(tournament, alice)
    with pytest.raises(TournamentError, match="already registered"):
        register(tournament, alice)
    register(tournament, bob)  # fills it: the sit & go starts
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING
    before = bankroll_balance(carol)
    with pytest.raises(TournamentError):
        register(tournament, carol)
    assert bankroll_balance(carol) == before
    assert_audit_clean()


def test_rule_8_2_a_sit_and_go_starts_when_it_fills_with_everyone_seated_and_no_buy_in_at_the_table(make_player):
    tournament = make_tournament()
    players = [make_player() for _ in range(3)]
    for player in players:
        register(tournament, player)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING and tournament.level == 1
    [table] = tables_of(tournament)
    assert table.is_tournament
    assert sorted(Seat.objects.filter(table=table).values_list("stack", flat=True)) == [300, 300, 300]
    # RULES 8.2: no buy-in, top-up, leaving or sitting out by choice.
    for refused in (table_services.sit_out, table_services.leave):
        with pytest.raises(TableError):
            refused(user=players[0], table_id=table.pk)
    # Not in the cash lobby.
    from tables.selectors.lobby import lobby_rows

    assert table.pk not in [row.table.pk for row in lobby_rows()]


def test_rule_8_3_the_next_hand_after_the_level_time_uses_the_new_level(make_player):
    tournament = make_tournament()
    for player in [make_player() for _ in range(3)]:
        register(tournament, player)
    [table] = tables_of(tournament)
    now = timezone.now()
    first = table_services.start_hand_if_due(table_id=table.pk, now=now)
    assert (first.config["small_blind"], first.config["big_blind"]) == (10, 20)
    from tables.models import Hand

    Hand.objects.filter(pk=first.pk).update(state=Hand.State.COMPLETE)  # as if the hand ended
    play_round(tournament, random.Random(1), now + timedelta(minutes=10, seconds=1))
    tournament.refresh_from_db()
    assert tournament.level == 2
    latest = table.hands.order_by("-number").first()
    assert (latest.config["small_blind"], latest.config["big_blind"]) == (20, 40)


@pytest.mark.parametrize("seed", [3, 8])
def test_rules_8_6_and_8_10_a_sit_and_go_played_to_the_end_pays_the_pool_in_places(
    seed, make_player, assert_audit_clean
):
    rng = random.Random(seed)
    tournament = make_tournament()
    players = [make_player() for _ in range(3)]
    bankrolls = {p.pk: bankroll_balance(p) for p in players}
    for player in players:
        register(tournament, player)
    now = timezone.now()
    for _ in range(400):
        now += timedelta(minutes=1)
        play_round(tournament, rng, now, on_hand_end=assert_audit_clean)
        tournament.refresh_from_db()
        if tournament.state == Tournament.State.FINISHED:
            break
    assert tournament.state == Tournament.State.FINISHED
    results = list(Result.objects.filter(tournament=tournament).order_by("place"))
    assert sorted(r.player_id for r in results) == sorted(p.pk for p in players)  # one place each (RULES 8.10)
    assert sum(r.prize for r in results) == 300  # the whole pool, 3 x 100 (RULES 8.1)
    assert results[0].place == 1 and results[0].prize == 300  # 2-3 entries: winner takes all
    for player in players:
        won = sum(r.prize for r in results if r.player_id == player.pk)
        assert bankroll_balance(player) == bankrolls[player.pk] - 110 + won
    assert not Entry.objects.filter(tournament=tournament, state=Entry.State.PLAYING).exists()
    assert_audit_clean()


def test_rule_8_12_a_cancelled_running_tournament_shares_the_pool_by_chips_exactly_once(
    make_player, assert_audit_clean
):
    tournament = make_tournament()
    players = [make_player() for _ in range(3)]
    for player in players:
        register(tournament, player)
    [table] = tables_of(tournament)
    stacks = dict(
        zip((s.player_id for s in Seat.objects.filter(table=table).order_by("number")), (500, 300, 100), strict=True)
    )
    for seat in Seat.objects.filter(table=table):
        seat.stack = stacks[seat.player_id]
        seat.save()
    before = {p.pk: bankroll_balance(p) for p in players}
    cancel(tournament_id=tournament.pk)
    with pytest.raises(TournamentError):
        cancel(tournament_id=tournament.pk)
    won = {p.pk: bankroll_balance(p) - before[p.pk] for p in players}
    # 300 x 500/900 = 166.67, 300 x 300/900 = 100, 300 x 100/900 = 33.3: the chip left to the biggest stack.
    assert sorted(won[player] for player in stacks) == [33, 100, 167]
    assert won[max(stacks, key=stacks.get)] == 167
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.CANCELLED
    assert tournament.prize_pool_account.balance == 0
    assert_audit_clean()


def test_rule_8_12_a_tournament_cancelled_before_the_start_refunds_everyone(make_player, assert_audit_clean):
    tournament = make_tournament(max_entrants=6)
    players = [make_player() for _ in range(2)]
    before = {p.pk: bankroll_balance(p) for p in players}
    for player in players:
        register(tournament, player)
    cancel(tournament_id=tournament.pk)
    assert {p.pk: bankroll_balance(p) for p in players} == before
    assert_audit_clean()


def test_rule_8_2_seats_and_the_first_button_are_drawn_at_random(make_player):
    """Thirty sit & goes of three: the first to register is on the first button some of the
    time but not every time, and not always in the same seat. By chance they would fail with
    probability (2/3)^30 (never on the button: about 5 in a million), (1/3)^30 and 3^-29."""
    buttons, seats = set(), set()
    for _ in range(30):
        tournament = make_tournament(seats_per_table=3)
        players = [make_player() for _ in range(3)]
        for player in players:
            register(tournament, player)
        [table] = tables_of(tournament)
        hand = table_services.start_hand_if_due(table_id=table.pk)
        first = Seat.objects.get(table=table, player=players[0]).number
        buttons.add(hand.config["button"] == first)
        seats.add(first)
    assert buttons == {True, False}
    assert len(seats) > 1
