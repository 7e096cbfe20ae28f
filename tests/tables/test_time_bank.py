"""The time bank: extra seconds once the time to act runs out (RULES 6.1), before RULES 6.2 applies."""

from datetime import timedelta
from functools import partial

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from tables import services
from tables.models import Hand, HandEvent, Seat
from tables.presentation.fragments import public_fragments
from tables.presentation.table_view import public_view
from tables.selectors.table_state import load_table_state
from tables.services import StaleAction

from ..support.races import at_once
from ..support.tables import running_hand, sit

pytestmark = pytest.mark.django_db

BANK = {
    "time_bank_initial_seconds": 30,
    "time_bank_refill_seconds": 5,
    "time_bank_refill_hands": 2,
    "time_bank_cap_seconds": 40,
}


@pytest.fixture
def banked(make_player, make_table):
    """Heads-up with a 30 s bank each: ann (seat 1, the button) acts first pre-flop."""
    table = make_table(**BANK)
    ann, ben = make_player("ann"), make_player("ben")
    sit(table, ann, 1)
    sit(table, ben, 2)
    hand = services.start_hand_if_due(table_id=table.pk)
    assert hand.turn_seat == 1
    return table, ann, ben


def _bank_ms(player) -> int:
    return Seat.objects.get(player=player).time_bank_ms


def _timeouts(table):
    return list(HandEvent.objects.filter(hand__table=table, type="timed_out"))


def _expire_at_deadline(table):
    hand = running_hand(table)
    return services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=hand.turn_deadline)


def test_a_player_sits_down_with_the_initial_bank(banked):
    _table, ann, ben = banked
    assert _bank_ms(ann) == _bank_ms(ben) == 30_000


def test_the_initial_bank_is_kept_within_the_cap(make_table, make_player):
    table = make_table(**{**BANK, "time_bank_initial_seconds": 90})
    seat = sit(table, make_player(), 1)
    assert seat.time_bank_ms == 40_000


def test_when_the_time_to_act_runs_out_the_bank_starts_instead_of_the_timeout(banked):
    table, ann, _ben = banked
    before = running_hand(table)
    assert _expire_at_deadline(table) is None
    hand = running_hand(table)
    assert _timeouts(table) == []  # RULES 6.2 waits for the bank
    assert hand.sequence == before.sequence  # a click made against the turn still counts
    assert hand.time_bank_started_at == before.turn_deadline
    assert hand.turn_deadline == before.turn_deadline + timedelta(seconds=30)
    # The bank has started: the clock does nothing until it is over.
    early = hand.turn_deadline - timedelta(milliseconds=1)
    assert services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=early) is None
    assert _timeouts(table) == [] and _bank_ms(ann) == 30_000


def test_a_click_during_the_bank_spends_only_the_seconds_used_and_the_rest_stays_for_later_hands(banked):
    table, ann, ben = banked
    _expire_at_deadline(table)
    hand = running_hand(table)
    services.act(
        table_id=table.pk,
        user=ann,
        kind="call",
        amount=None,
        sequence=hand.sequence,
        now=hand.time_bank_started_at + timedelta(seconds=12),
    )
    assert _bank_ms(ann) == 18_000 and _bank_ms(ben) == 30_000
    hand = running_hand(table)
    assert hand.time_bank_started_at is None and hand.turn_seat == 2
    assert hand.turn_deadline - hand.turn_started_at == timedelta(seconds=table.time_to_act)  # ben's own time, whole
    services.act(table_id=table.pk, user=ben, kind="fold", amount=None, sequence=hand.sequence)
    hand = services.start_hand_if_due(table_id=table.pk)
    # Kept at the seat across hands (and the second hand dealt in refills it by 5 s).
    assert hand.number == 2 and _bank_ms(ann) == 18_000 + 5_000


def test_rule_6_2_applies_when_the_bank_is_empty_too(banked, assert_audit_clean):
    table, ann, _ben = banked
    _expire_at_deadline(table)
    assert _expire_at_deadline(table) is not None  # the bank's end
    assert [event.payload["became"] for event in _timeouts(table)] == ["protected_all_in"]  # the small blind in
    assert _bank_ms(ann) == 0
    assert Seat.objects.get(player=ann).pending_sit_out or Seat.objects.get(player=ann).state == Seat.State.SITTING_OUT
    assert_audit_clean()


def test_an_empty_bank_lets_rule_6_2_apply_at_the_first_deadline(banked):
    table, ann, _ben = banked
    Seat.objects.filter(player=ann).update(time_bank_ms=0)
    assert _expire_at_deadline(table) is not None
    assert len(_timeouts(table)) == 1


def test_a_table_without_a_bank_times_out_at_the_deadline(make_table, make_player):
    table = make_table()  # every bank setting 0: off
    assert not table.has_time_bank
    sit(table, make_player(), 1)
    sit(table, make_player(), 2)
    services.start_hand_if_due(table_id=table.pk)
    assert _expire_at_deadline(table) is not None and len(_timeouts(table)) == 1


def test_the_bank_refills_every_so_many_hands_dealt_in_up_to_the_cap(banked):
    table, ann, ben = banked
    Seat.objects.filter(player=ann).update(time_bank_ms=28_000)
    for number in range(2, 6):  # hands 1..5 dealt: refills after hands 2 and 4
        hand = running_hand(table)
        seat = next(s for s in Seat.objects.filter(table=table) if s.number == hand.turn_seat)
        services.act(table_id=table.pk, user=seat.player, kind="fold", amount=None, sequence=hand.sequence)
        assert services.start_hand_if_due(table_id=table.pk).number == number
    assert _bank_ms(ben) == 40_000  # 30 + 5 + 5: at the cap
    assert _bank_ms(ann) == 38_000  # 28 + 5 + 5
    hand = running_hand(table)
    seat = next(s for s in Seat.objects.filter(table=table) if s.number == hand.turn_seat)
    services.act(table_id=table.pk, user=seat.player, kind="fold", amount=None, sequence=hand.sequence)
    services.start_hand_if_due(table_id=table.pk)  # hand 6: the third refill
    assert _bank_ms(ben) == 40_000 and _bank_ms(ann) == 40_000  # never past the cap


def test_a_refill_needs_a_number_of_hands():
    from tables.models import Table

    table = Table(name="No hands", variant="pot_limit", stake_small=1, stake_big=2, min_buy_in=40, max_buy_in=200)
    table.time_bank_refill_seconds, table.time_bank_refill_hands, table.time_bank_cap_seconds = 5, 0, 30
    with pytest.raises(ValidationError) as refused:
        table.full_clean()
    assert "time_bank_refill_hands" in refused.value.message_dict


def test_the_seat_shows_its_bank_and_the_turn_a_second_countdown(banked):
    table, _ann, _ben = banked
    html = public_fragments(public_view(load_table_state(table.pk), timezone.now()))["felt"]
    assert html.count("Bank 30s") == 1  # ben's seat; ann's shows her turn's clock instead
    assert "time-bank" not in html
    _expire_at_deadline(table)
    hand = running_hand(table)
    now = hand.time_bank_started_at + timedelta(seconds=4)
    html = public_fragments(public_view(load_table_state(table.pk), now))["felt"]
    assert 'class="countdown time-bank"' in html and "Time bank" in html
    assert '<span class="countdown-seconds">26</span>' in html


@pytest.mark.usefixtures("needs_postgresql")
@pytest.mark.django_db(transaction=True)
def test_a_click_and_the_end_of_the_bank_at_the_same_instant_never_both_apply(banked, assert_audit_clean):
    """Like the click against the deadline: exactly one of them applies, and the bank is spent once."""
    table, ann, ben = banked
    for _ in range(4):
        hand = running_hand(table)
        actor = ann if hand.turn_seat == 1 else ben
        Seat.objects.filter(player=actor).update(time_bank_ms=10_000)
        services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=hand.turn_deadline)  # the bank starts
        hand.refresh_from_db()
        assert hand.time_bank_started_at is not None
        sequence, bank_end = hand.sequence, hand.turn_deadline
        outcomes = at_once(
            [
                partial(
                    services.act,
                    table_id=table.pk,
                    user=actor,
                    kind="fold",
                    amount=None,
                    sequence=sequence,
                    now=bank_end,
                ),
                partial(services.expire_turn, table_id=table.pk, sequence=sequence, now=bank_end),
            ]
        )
        applied = [o for o in outcomes if isinstance(o, Hand)]
        assert len(applied) == 1, outcomes
        assert isinstance(outcomes[0], (Hand, StaleAction)) and (outcomes[1] is None or isinstance(outcomes[1], Hand))
        assert running_hand(table) is None  # a heads-up fold or timeout-fold ends the hand
        assert _bank_ms(actor) == 0  # spent once, to the end
        assert_audit_clean()
        Seat.objects.filter(table=table).update(state=Seat.State.PLAYING, pending_sit_out=False)
        type(table).objects.filter(pk=table.pk).update(next_hand_at=None)
        services.start_hand_if_due(table_id=table.pk)
