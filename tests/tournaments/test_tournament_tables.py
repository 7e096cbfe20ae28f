"""Play at a tournament table: the level's stakes and ante (RULES 8.3, 8.4), away players
(RULES 8.5), late registration dealt in at once (RULES 8.2)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services as table_services
from tables.models import HandPlayer, Seat
from tables.selectors.hands import rebuild
from tournaments.models import Entry, Tournament

from .support import make_tournament, register, running_hand, tables_of

pytestmark = pytest.mark.django_db


def started(make_player, count=3, **options):
    tournament = make_tournament(max_entrants=count, **options)
    players = [make_player() for _ in range(count)]
    for player in players:
        register(tournament, player)
    [table] = tables_of(tournament)
    return tournament, table, {p.pk: p for p in players}


def test_rule_8_4_a_level_with_an_ante_deals_hands_with_the_big_blind_ante(make_player):
    _, table, _ = started(make_player, levels=[(50, 100, 100, 10)])
    hand = table_services.start_hand_if_due(table_id=table.pk)
    assert (hand.config["small_blind"], hand.config["big_blind"], hand.config["big_blind_ante"]) == (50, 100, 100)
    engine = rebuild(hand)
    big_blind = hand.config["big_blind_seat"]
    assert engine.bets[big_blind] == 100  # the ante is no part of the bet (RULES 8.4)
    assert engine.stacks[big_blind] == 300 - 200


def test_rule_8_5_a_player_who_timed_out_is_away_dealt_in_and_checks_or_folds_at_once(make_player):
    _, table, _ = started(make_player)
    hand = table_services.start_hand_if_due(table_id=table.pk)
    first = rebuild(hand).to_act
    late = timezone.now() + timedelta(minutes=5)
    table_services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=late)  # RULES 6: folded
    away = Seat.objects.get(table=table, number=first)
    while (hand := running_hand(table)) is not None:  # the others finish the hand
        engine = rebuild(hand)
        legal = engine.legal_actions()
        user = Seat.objects.get(table=table, number=legal.seat).player
        kind = "check" if legal.can_check else "call"
        table_services.act(table_id=table.pk, user=user, kind=kind, amount=None, sequence=hand.sequence)
    away.refresh_from_db()
    assert away.state == Seat.State.SITTING_OUT
    # The next hand deals the away player in; when their turn comes they act at once.
    acted_away = []
    for _ in range(3):
        hand = table_services.start_hand_if_due(table_id=table.pk, now=late + timedelta(minutes=1))
        if hand is None:
            break
        assert HandPlayer.objects.filter(hand=hand, player=away.player).exists()
        engine = rebuild(hand)
        assert engine.to_act != away.number or engine.is_over
        kinds = [e["kind"] for e in engine.events if e["type"] == "player_acted" and e["seat"] == away.number]
        assert set(kinds) <= {"check", "fold"}
        while (hand := running_hand(table)) is not None:
            engine = rebuild(hand)
            assert engine.to_act != away.number  # never waits for the away player
            legal = engine.legal_actions()
            user = Seat.objects.get(table=table, number=legal.seat).player
            table_services.act(table_id=table.pk, user=user, kind="fold", amount=None, sequence=hand.sequence)
        engine = rebuild(table.hands.order_by("-number").first())
        acted_away += [e["kind"] for e in engine.events if e["type"] == "player_acted" and e["seat"] == away.number]
    assert acted_away and set(acted_away) <= {"check", "fold"}
    # Acting again (coming back) ends being away.
    table_services.sit_in(user=away.player, table_id=table.pk, post_big_blind_now=False)
    away.refresh_from_db()
    assert away.state == Seat.State.PLAYING


def test_rule_8_2_late_registration_seats_the_player_who_is_dealt_in_without_posting(make_player):
    tournament = make_tournament(
        kind=Tournament.Kind.SCHEDULED, starts_at=timezone.now(), max_entrants=6, late_registration_levels=2
    )
    players = [make_player() for _ in range(3)]
    for player in players:
        register(tournament, player)
    from tournaments.services.clock import tick

    tick(timezone.now())
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING and tournament.payout_percentages is None
    [table] = tables_of(tournament)
    hand = table_services.start_hand_if_due(table_id=table.pk)
    big_blind = hand.config["big_blind_seat"]
    while (hand := running_hand(table)) is not None:
        engine = rebuild(hand)
        legal = engine.legal_actions()
        user = Seat.objects.get(table=table, number=legal.seat).player
        table_services.act(table_id=table.pk, user=user, kind="fold", amount=None, sequence=hand.sequence)
    late = make_player()
    register(tournament, late)
    seat = Seat.objects.get(table=table, player=late)
    assert seat.stack == 300 and seat.state == Seat.State.WAITING_FOR_BIG_BLIND
    assert Entry.objects.get(tournament=tournament, player=late).state == Entry.State.PLAYING
    hand = table_services.start_hand_if_due(table_id=table.pk, now=timezone.now() + timedelta(seconds=1))
    dealt = {setup["seat"]: setup for setup in hand.config["seats"]}
    next_button = hand.config["button"]
    small_blind_position = big_blind
    # The button's seat, the small blind's position (the last big blind) and the seats between them.
    in_stretch = (seat.number - next_button) % 6 <= (small_blind_position - next_button) % 6
    assert (seat.number in dealt) != in_stretch  # RULES 8.2: dealt in at once unless in the button's stretch
    if seat.number in dealt:
        assert not dealt[seat.number]["posts_big_blind"]
