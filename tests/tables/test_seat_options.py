"""A seated player's standing choices: leave after this hand, sit out at the next big blind, auto top-up."""

import pytest

from cashier.models import LedgerTransaction
from cashier.selectors import bankroll_balance
from tables import services
from tables.models import Hand, HandPlayer, Seat
from tables.services.errors import TableError
from tables.services.seat_options import set_seat_options

from ..support.tables import act, running_hand, sit

pytestmark = pytest.mark.django_db


def options(table, user, *, sit_out_next_big_blind=False, leave_after_hand=False, auto_top_up_to=0):
    return set_seat_options(
        user=user,
        table_id=table.pk,
        sit_out_next_big_blind=sit_out_next_big_blind,
        leave_after_hand=leave_after_hand,
        auto_top_up_to=auto_top_up_to,
    )


def test_leave_after_this_hand_plays_the_hand_out_then_cashes_out(heads_up, assert_audit_clean):
    table, alice, bob = heads_up
    services.start_hand_if_due(table_id=table.pk)
    options(table, bob, leave_after_hand=True)
    assert Seat.objects.get(player=bob).state == Seat.State.PLAYING  # still in the hand, not folded
    act(table, alice, "call")
    act(table, bob, "check")  # bob still acts: the flop comes
    assert running_hand(table).sequence > 0
    act(table, bob, "bet", 2)
    act(table, alice, "fold")
    assert not Seat.objects.filter(player=bob).exists()  # gone when the hand ended, with his winnings
    assert HandPlayer.objects.get(player=bob).final_stack == 202
    assert_audit_clean()


def test_leave_after_this_hand_without_a_hand_leaves_at_once(heads_up, assert_audit_clean):
    table, _alice, bob = heads_up
    options(table, bob, leave_after_hand=True)
    assert not Seat.objects.filter(player=bob).exists()
    assert bankroll_balance(bob) == 10_000
    assert_audit_clean()


def test_sit_out_next_big_blind_plays_until_the_big_blind_comes_round(make_table, make_player):
    table = make_table()
    ann, ben, cid = (make_player(name) for name in ("ann", "ben", "cid"))
    for number, player in enumerate((ann, ben, cid), start=1):
        sit(table, player, number)
    hand = services.start_hand_if_due(table_id=table.pk)
    assert (hand.config["small_blind_seat"], hand.config["big_blind_seat"]) == (2, 3)
    options(table, ben, sit_out_next_big_blind=True)  # ben: the button next hand, then the big blind
    players = {1: ann, 2: ben, 3: cid}

    def fold_round():
        while (current := running_hand(table)) is not None:
            act(table, players[current.turn_seat], "fold")

    fold_round()
    second = services.start_hand_if_due(table_id=table.pk)
    assert second.button == 2 and 2 in {p.seat for p in second.players.all()}  # ben plays on
    fold_round()
    third = services.start_hand_if_due(table_id=table.pk)
    assert 2 not in {p.seat for p in third.players.all()}  # his big blind: he sits out instead
    seat = Seat.objects.get(player=ben)
    assert seat.state == Seat.State.SITTING_OUT and not seat.sit_out_next_big_blind


def test_auto_top_up_brings_the_stack_back_between_hands_through_the_ledger(heads_up, assert_audit_clean):
    table, alice, bob = heads_up
    options(table, alice, auto_top_up_to=200)
    hand = services.start_hand_if_due(table_id=table.pk)
    act(table, alice, "raise", 6)
    act(table, bob, "call")
    act(table, bob, "bet", 12)
    act(table, alice, "fold")  # alice is down 6
    seat = Seat.objects.get(player=alice)
    assert seat.stack == 200
    top_up = LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.TOP_UP)
    assert top_up.reference == seat.session.reference and top_up.created_by == alice
    assert top_up.request_id == f"auto-top-up-{hand.pk}-{seat.session_id}"
    assert bankroll_balance(alice) == 10_000 - 200 - 6
    assert_audit_clean()


def test_auto_top_up_takes_no_more_than_the_bankroll_has(heads_up, assert_audit_clean):
    from cashier import services as cashier

    table, alice, bob = heads_up
    cashier.adjust(
        user=alice, amount=-(10_000 - 200 - 2), reason="test: a nearly empty bankroll", staff=bob, request_id="t" * 16
    )
    assert bankroll_balance(alice) == 2
    options(table, alice, auto_top_up_to=200)
    services.start_hand_if_due(table_id=table.pk)
    act(table, alice, "raise", 6)
    act(table, bob, "fold")
    services.start_hand_if_due(table_id=table.pk)
    act(table, bob, "raise", 6)  # bob is the button now
    act(table, alice, "fold")  # alice lost her big blind (2) and won 2 before: at 200, nothing to add
    assert Seat.objects.get(player=alice).stack == 200
    assert_audit_clean()


@pytest.mark.parametrize("target", [10, 201, -5, True])
def test_a_bad_auto_top_up_is_refused_and_changes_nothing(heads_up, target):
    table, alice, _bob = heads_up
    with pytest.raises(TableError):
        options(table, alice, auto_top_up_to=target)
    assert Seat.objects.get(player=alice).auto_top_up_to == 0


def test_only_a_seated_player_has_seat_options(heads_up, make_player):
    table, _alice, _bob = heads_up
    with pytest.raises(TableError, match="no seat"):
        options(table, make_player(), leave_after_hand=True)
    assert Hand.objects.count() == 0


def test_the_same_options_again_change_nothing_and_announce_nothing(heads_up, django_capture_on_commit_callbacks):
    """A request that changes nothing bumps no version and renders nothing (capacity)."""
    table, _alice, bob = heads_up
    options(table, bob, auto_top_up_to=table.max_buy_in)
    table.refresh_from_db()
    version = table.version
    with django_capture_on_commit_callbacks(execute=False) as announced:
        options(table, bob, auto_top_up_to=table.max_buy_in)
    table.refresh_from_db()
    assert table.version == version and announced == []
    with django_capture_on_commit_callbacks(execute=False) as announced:
        options(table, bob, auto_top_up_to=0)
    table.refresh_from_db()
    assert table.version == version + 1 and len(announced) == 1
    assert Seat.objects.get(player=bob).auto_top_up_to == 0
