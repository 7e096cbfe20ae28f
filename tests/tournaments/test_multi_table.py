"""Whole multi-table tournaments played by random actions through the services (RULES 8.1,
8.6-8.10): chips conserved after every hand, tables balanced, one place each, prizes = pool."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.models import Seat
from tournaments.models import Entry, Result, Tournament, TournamentTable
from tournaments.services.payouts import prize_pool

from .support import make_tournament, play_round, register, running_hand, tables_of

pytestmark = pytest.mark.django_db


def play_to_the_end(tournament, rng, assert_audit_clean, seen=None):
    now = timezone.now()

    def balanced():
        tournament.refresh_from_db()
        if tournament.state != Tournament.State.RUNNING:
            return
        tables = tables_of(tournament)
        if any(running_hand(table) for table in tables):
            return
        counts = [Seat.objects.filter(table=table).count() for table in tables]
        assert max(counts) - min(counts) <= 1, counts  # RULES 8.7
        assert all(seat.stack > 0 for seat in Seat.objects.filter(table__in=tables))  # RULES 8.6
        if seen is not None:
            seen["tables"].add(len(tables))
            seen["hand_for_hand"] |= tournament.hand_for_hand

    for _ in range(600):
        now += timedelta(minutes=1)
        play_round(tournament, rng, now, on_hand_end=assert_audit_clean, after_tick=balanced)
        tournament.refresh_from_db()
        if tournament.state == Tournament.State.FINISHED:
            return
    raise AssertionError("the tournament did not finish")


def check_finished(tournament, players, assert_audit_clean):
    assert tournament.state == Tournament.State.FINISHED
    results = list(Result.objects.filter(tournament=tournament))
    assert sorted(r.player_id for r in results) == sorted(p.pk for p in players)  # RULES 8.10
    assert sum(r.prize for r in results) == prize_pool(tournament)  # RULES 8.1, 8.10
    assert [r.place for r in results if r.place == 1] == [1]
    assert not Seat.objects.filter(table__tournament_table__tournament=tournament).exists()
    assert not Entry.objects.filter(tournament=tournament, state=Entry.State.PLAYING).exists()
    assert_audit_clean()


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(entrants=st.integers(7, 13), seats=st.integers(3, 6), seed=st.integers(0, 10**6))
def test_rules_8_1_and_8_6_to_8_10_random_scheduled_tournaments_hold_every_invariant(
    entrants, seats, seed, make_player, assert_audit_clean
):
    rng = random.Random(seed)
    tournament = make_tournament(
        kind=Tournament.Kind.SCHEDULED,
        starts_at=timezone.now(),
        seats_per_table=seats,
        max_entrants=20,
        starting_chips=200,
        levels=[(10, 20, 0, 1), (20, 40, 20, 1), (50, 100, 100, 1), (100, 200, 200, 1)],
    )
    players = [make_player() for _ in range(entrants)]
    for player in players:
        register(tournament, player)
    play_to_the_end(tournament, rng, assert_audit_clean)
    tournament.refresh_from_db()
    check_finished(tournament, players, assert_audit_clean)


def test_rules_8_7_and_8_8_a_three_table_field_balances_breaks_and_forms_the_final_table(
    make_player, assert_audit_clean
):
    tournament = make_tournament(
        kind=Tournament.Kind.SCHEDULED,
        starts_at=timezone.now(),
        seats_per_table=4,
        max_entrants=20,
        starting_chips=200,
        # Four places paid: with five left on two tables the next elimination decides who is paid.
        payout_table=[{"max_entries": 20, "percentages": [40, 30, 20, 10]}],
        levels=[(10, 20, 0, 2), (20, 40, 20, 2), (50, 100, 100, 2)],
    )
    players = [make_player() for _ in range(11)]
    for player in players:
        register(tournament, player)
    seen = {"tables": set(), "hand_for_hand": False}
    play_to_the_end(tournament, random.Random(5), assert_audit_clean, seen)
    tournament.refresh_from_db()
    assert {3, 2, 1} <= seen["tables"]  # two tables broke (RULES 8.8), the final table formed
    assert TournamentTable.objects.filter(tournament=tournament, broken=True).count() == 3
    assert not TournamentTable.objects.filter(tournament=tournament, table__is_active=True).exists()
    check_finished(tournament, players, assert_audit_clean)
    assert Result.objects.filter(tournament=tournament, prize__gt=0).count() >= 4


def bust(seat, into):
    """Move a seat's chips to another player's at the same table between hands (chips conserved)."""
    into.refresh_from_db()
    into.stack += seat.stack
    into.save(update_fields=["stack"])
    seat.stack = 0
    seat.save(update_fields=["stack"])


def play_one_hand(table):
    from tables import services as table_services
    from tables.selectors.hands import rebuild

    hand = table_services.start_hand_if_due(table_id=table.pk, now=timezone.now() + timedelta(seconds=1))
    if hand is None:
        return False
    while (hand := running_hand(table)) is not None:
        legal = rebuild(hand).legal_actions()
        user = Seat.objects.get(table=table, number=legal.seat).player
        kind = "check" if legal.can_check else "fold"
        table_services.act(table_id=table.pk, user=user, kind=kind, amount=None, sequence=hand.sequence)
    return True


def test_rule_8_9_hand_for_hand_one_hand_per_table_and_busts_of_one_round_tie_across_tables(
    make_player, assert_audit_clean
):
    from tournaments.services.clock import tick
    from tournaments.services.play import advance

    tournament = make_tournament(
        kind=Tournament.Kind.SCHEDULED,
        starts_at=timezone.now(),
        seats_per_table=4,
        max_entrants=20,
        payout_table=[{"max_entries": 20, "percentages": [40, 30, 20, 10]}],
    )
    players = [make_player() for _ in range(8)]
    for player in players:
        register(tournament, player)
    tick(timezone.now())
    first, second = tables_of(tournament)
    # Three busted between hands (two at the first table, one at the second): five left, four paid.
    a = list(Seat.objects.filter(table=first).order_by("number"))
    b = list(Seat.objects.filter(table=second).order_by("number"))
    bust(a[0], a[3])
    bust(a[1], a[3])
    bust(b[0], b[3])
    advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.hand_for_hand  # the next elimination decides who is paid
    counts = sorted(Seat.objects.filter(table=t).count() for t in (first, second))
    assert counts == [2, 3]  # balanced (RULES 8.7)
    # Each table deals one hand, then waits for the other (RULES 8.9).
    assert play_one_hand(first)
    assert not play_one_hand(first)
    # One player busts at each table during the round: after both tables' hands they tie for 4th-5th.
    a = list(Seat.objects.filter(table=first).order_by("-stack"))
    bust(a[-1], a[0])
    assert play_one_hand(second)
    b = list(Seat.objects.filter(table=second).order_by("-stack"))
    busted_stacks = {a[-1].player_id, b[-1].player_id}
    bust(b[-1], b[0])
    advance(tournament_id=tournament.pk)
    places = dict(
        Result.objects.filter(tournament=tournament, player_id__in=busted_stacks).values_list("player_id", "place")
    )
    assert sorted(places.values()) == [4, 4]  # tied across tables (RULES 8.9)
    prizes = sorted(
        Result.objects.filter(tournament=tournament, player_id__in=busted_stacks).values_list("prize", flat=True)
    )
    pool = prize_pool(tournament)
    assert sum(prizes) == pool * 10 // 100 and prizes[1] - prizes[0] <= 1  # the 4th place's prize, shared
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand  # three left: everyone left is paid
    assert_audit_clean()


def test_rule_8_9_a_hand_running_when_hand_for_hand_begins_is_that_tables_hand_of_the_round(
    make_player, assert_audit_clean
):
    """Found by ``bench.load tournament``: a table in a hand when hand-for-hand began had to play
    one more hand, could not deal it while a player it busted waited for the round's end, and
    the tournament stood still."""
    from tables import services as table_services
    from tables.selectors.hands import rebuild
    from tournaments.services.clock import tick
    from tournaments.services.play import advance

    tournament = make_tournament(
        kind=Tournament.Kind.SCHEDULED,
        starts_at=timezone.now(),
        seats_per_table=4,
        max_entrants=20,
        payout_table=[{"max_entries": 20, "percentages": [40, 30, 20, 10]}],
    )
    for player in [make_player() for _ in range(8)]:
        register(tournament, player)
    tick(timezone.now())
    first, second = tables_of(tournament)
    a = list(Seat.objects.filter(table=first).order_by("number"))
    bust(a[0], a[3])
    bust(a[1], a[3])
    advance(tournament_id=tournament.pk)  # six left, balanced three and three
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand
    assert table_services.start_hand_if_due(table_id=second.pk, now=timezone.now() + timedelta(seconds=1))
    a = list(Seat.objects.filter(table=first).order_by("-stack"))
    bust(a[-1], a[0])
    advance(tournament_id=tournament.pk)  # five left, four paid: hand-for-hand while the second table plays
    tournament.refresh_from_db()
    assert tournament.hand_for_hand
    while (hand := running_hand(second)) is not None:
        legal = rebuild(hand).legal_actions()
        user = Seat.objects.get(table=second, number=legal.seat).player
        kind = "check" if legal.can_check else "fold"
        table_services.act(table_id=second.pk, user=user, kind=kind, amount=None, sequence=hand.sequence)
    b = list(Seat.objects.filter(table=second).order_by("-stack"))
    bust(b[-1], b[0])  # that hand busted a player
    assert play_one_hand(first)  # the first table's hand of the round
    assert not play_one_hand(second)  # the second played its hand: it waits for the round's end
    advance(tournament_id=tournament.pk)
    assert Result.objects.filter(tournament=tournament, player=b[-1].player, place=5).exists()
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand  # four left, all paid
    assert play_one_hand(second) or play_one_hand(first)  # and the tables deal again
    assert_audit_clean()
