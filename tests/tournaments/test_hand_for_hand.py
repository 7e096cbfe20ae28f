"""Hand-for-hand that begins while a table is in a hand (RULES 8.9): that table finishes its hand,
an ordinary one whose busts are placed at once (RULES 8.6); no table deals the first
hand-for-hand hand until every table has finished the hand it was dealing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services as table_services
from tables.models import Seat
from tables.selectors.hands import rebuild
from tournaments.models import Result, Tournament
from tournaments.services.clock import tick
from tournaments.services.play import advance

from .support import make_tournament, register, running_hand, tables_of
from .test_multi_table import bust, play_one_hand

pytestmark = pytest.mark.django_db


def finish_hand(table) -> None:
    """Check or fold the running hand to its end."""
    while (hand := running_hand(table)) is not None:
        legal = rebuild(hand).legal_actions()
        user = Seat.objects.get(table=table, number=legal.seat).player
        kind = "check" if legal.can_check else "fold"
        table_services.act(table_id=table.pk, user=user, kind=kind, amount=None, sequence=hand.sequence)


def bubble_during_a_hand(make_player):
    """Eight players at two tables of four, four paid. Two bust between hands (six left); the
    second table deals; meanwhile a third busts at the first, between its hands: five left, and
    the next elimination decides who is paid while the second table is in its hand."""
    tournament = make_tournament(
        kind=Tournament.Kind.SCHEDULED,
        starts_at=timezone.now(),
        seats_per_table=4,
        max_entrants=20,
        payout_table=[{"max_entries": 20, "percentages": [40, 30, 20, 10]}],
    )
    for _ in range(8):
        register(tournament, make_player())
    tick(timezone.now())
    first, second = tables_of(tournament)
    a = list(Seat.objects.filter(table=first).order_by("number"))
    b = list(Seat.objects.filter(table=second).order_by("number"))
    bust(a[0], a[3])
    bust(b[0], b[3])
    advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand  # six left
    assert table_services.start_hand_if_due(table_id=second.pk, now=timezone.now() + timedelta(seconds=1))
    bust(a[1], a[3])
    advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.hand_for_hand and running_hand(second) is not None  # it began mid-hand
    return tournament, first, second


def test_rule_8_9_no_table_deals_the_round_while_another_finishes_the_hand_it_was_dealing(
    make_player, assert_audit_clean
):
    tournament, first, second = bubble_during_a_hand(make_player)
    assert not play_one_hand(first)  # the second table's hand is not a hand-for-hand hand: wait for it
    finish_hand(second)
    advance(tournament_id=tournament.pk)
    # Now the round: each table deals one hand, then waits for the other.
    assert play_one_hand(first)
    assert not play_one_hand(first)
    assert play_one_hand(second)
    assert not play_one_hand(second)
    advance(tournament_id=tournament.pk)
    assert play_one_hand(first)  # the next round
    assert_audit_clean()


def test_rule_8_9_a_bust_in_the_hand_running_when_hand_for_hand_began_is_placed_at_once(
    make_player, assert_audit_clean
):
    """Before, the bust waited for a round its table could not deal: the tournament stalled."""
    tournament, _first, second = bubble_during_a_hand(make_player)
    finish_hand(second)
    b = list(Seat.objects.filter(table=second).order_by("-stack"))
    bust(b[-1], b[0])  # busted in that hand
    advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    result = Result.objects.get(tournament=tournament, player=b[-1].player)
    assert (result.place, result.prize) == (5, 0)  # the bubble (RULES 8.6, 8.10)
    assert not tournament.hand_for_hand  # four left, all paid
    [final] = tables_of(tournament)  # four left fit on one table: the final table forms (RULES 8.8)
    assert Seat.objects.filter(table=final, stack__gt=0).count() == 4
    assert play_one_hand(final)  # and deals on
    assert_audit_clean()
