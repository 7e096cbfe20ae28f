"""Many random hands through the services, with players coming and going: no chip is ever lost."""

import random
import uuid

import pytest
from django.utils import timezone

from cashier.selectors import bankroll_balance
from tables import services
from tables.models import Seat, Table
from tables.selectors.coming_back import coming_back

from ..support.tables import play_random_action, running_hand, sit

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("variant", "small", "big", "seed"), [("pot_limit", 1, 2, 7), ("limit", 10, 20, 11)])
def test_random_hands_conserve_chips_after_every_hand(
    variant, small, big, seed, make_player, make_table, assert_audit_clean
):
    rng = random.Random(seed)
    table = make_table(
        variant=variant, stake_small=small, stake_big=big, min_buy_in=20 * big, max_buy_in=100 * big, seat_count=6
    )
    players = [make_player() for _ in range(5)]
    for number, player in zip([1, 2, 4, 5, 6], players, strict=True):
        sit(table, player, number, buy_in=rng.randint(table.min_buy_in, table.max_buy_in))
    hands = 0
    while hands < 25:
        if services.start_hand_if_due(table_id=table.pk) is None:
            _bring_players_back(table, players, rng)
            continue
        hands += 1
        while running_hand(table) is not None:
            if rng.random() < 0.05:
                _random_request(table, rng)
            else:
                by_seat = {s.number: s.player for s in Seat.objects.filter(table=table)}
                play_random_action(table, by_seat, rng)
            assert_audit_clean()
    report = assert_audit_clean()
    at_table = sum(Seat.objects.filter(table=table).values_list("stack", flat=True))
    bankrolls = sum(bankroll_balance(p) for p in players)
    assert bankrolls + at_table == report.chips_issued


def _random_request(table: Table, rng: random.Random) -> None:
    seat = rng.choice(list(Seat.objects.filter(table=table)))
    request = rng.choice(["sit_out", "top_up", "leave"])
    try:
        if request == "top_up":
            services.top_up(
                user=seat.player, table_id=table.pk, amount=rng.randint(1, 50), request_id=str(uuid.uuid4())
            )
        else:
            getattr(services, request)(user=seat.player, table_id=table.pk)
    except services.REFUSALS:
        pass  # e.g. a top-up over the maximum: refused, nothing changed (the audit checks it)


def _bring_players_back(table: Table, players, rng: random.Random) -> None:
    seated = {s.player_id: s for s in Seat.objects.filter(table=table)}
    free = [n for n in range(1, table.seat_count + 1) if n not in {s.number for s in seated.values()}]
    for player in players:
        seat = seated.get(player.pk)
        if seat is None and free:
            # RULES 7.5: straight back, they buy in for at least the stack they left with.
            back = coming_back(player_id=player.pk, table_id=table.pk, now=timezone.now())
            buy_in = max(table.min_buy_in, back.stack if back else 0)
            sit(table, player, free.pop(), buy_in=buy_in, post_now=rng.random() < 0.5)
        elif seat is not None and seat.state == Seat.State.SITTING_OUT:
            if seat.stack == 0:
                services.top_up(user=player, table_id=table.pk, amount=table.min_buy_in, request_id=str(uuid.uuid4()))
            services.sit_in(user=player, table_id=table.pk, post_big_blind_now=rng.random() < 0.5)
