"""Hands at a table through the services: blinds, turns, settling, pending requests."""

import uuid

import pytest

from cashier.selectors import bankroll_balance
from tables import services
from tables.engine import IllegalAction
from tables.models import Hand, HandEvent, HandPlayer, Seat
from tables.services import StaleAction

from ..support.tables import act, running_hand, sit

pytestmark = pytest.mark.django_db


def _start(table, deck=None):
    return services.start_hand_if_due(table_id=table.pk, deck=deck)


def _blinds(hand):
    return [
        (e.payload["seat"], e.payload["blind"], e.payload["amount"])
        for e in HandEvent.objects.filter(hand=hand, type="blind_posted")
    ]


def test_rule_2_1_first_player_to_sit_is_the_button_and_heads_up_posts_the_small_blind(heads_up, assert_audit_clean):
    """RULES 2.1 and 2.3: the first to sit is the button; heads-up the button posts the small blind and acts first."""
    table, _alice, _bob = heads_up
    hand = _start(table)
    assert hand.number == 1 and hand.button == 1
    assert _blinds(hand) == [(1, "small_blind", 1), (2, "big_blind", 2)]
    assert hand.turn_seat == 1 and hand.turn_deadline is not None
    assert dict(Seat.objects.values_list("number", "stack")) == {1: 199, 2: 198}
    assert set(Seat.objects.values_list("state", flat=True)) == {Seat.State.PLAYING}
    assert_audit_clean()


def test_no_hand_starts_with_one_player(make_player, make_table):
    table = make_table()
    sit(table, make_player(), 1)
    assert _start(table) is None


def test_rule_5_1_a_fold_settles_the_hand_and_the_button_moves(heads_up, assert_audit_clean):
    """RULES 5.1 and 2.2: everyone else folds, the last player wins; the button moves on."""
    table, alice, _bob = heads_up
    _start(table)
    act(table, alice, "fold")
    hand = Hand.objects.get(number=1)
    assert hand.state == Hand.State.COMPLETE and hand.ended_at is not None
    assert dict(Seat.objects.values_list("number", "stack")) == {1: 199, 2: 201}
    assert dict(HandPlayer.objects.filter(hand=hand).values_list("seat", "final_stack")) == {1: 199, 2: 201}
    assert_audit_clean()
    second = _start(table)
    assert second.number == 2 and second.button == 2
    assert_audit_clean()


def _frozen(table):
    hand = running_hand(table)
    return (
        hand.sequence,
        HandEvent.objects.filter(hand=hand).count(),
        list(Seat.objects.values_list("stack", flat=True)),
    )


def test_acting_out_of_turn_is_refused_and_changes_nothing(heads_up, assert_audit_clean):
    table, _alice, bob = heads_up
    _start(table)
    before = _frozen(table)
    with pytest.raises(IllegalAction, match="not seat 2's turn"):
        act(table, bob, "check")
    assert _frozen(table) == before
    assert_audit_clean()


@pytest.mark.parametrize(
    ("kind", "amount", "message"),
    [
        ("check", None, "check"),
        ("raise", 1000, "between"),
        ("raise", 3, "between"),
        ("dance", None, "Unknown action"),
        ("timeout", None, "Only the table's clock"),
    ],
)
def test_a_wrong_action_or_amount_is_refused_and_changes_nothing(heads_up, assert_audit_clean, kind, amount, message):
    table, alice, _bob = heads_up
    _start(table)
    before = _frozen(table)
    with pytest.raises((IllegalAction, services.TableError), match=message):
        act(table, alice, kind, amount)
    assert _frozen(table) == before
    assert_audit_clean()


def test_a_stale_sequence_or_double_submit_is_refused(heads_up, assert_audit_clean):
    table, alice, bob = heads_up
    _start(table)
    sequence = running_hand(table).sequence
    act(table, alice, "call", sequence=sequence)
    before = _frozen(table)
    with pytest.raises(StaleAction, match="out of date"):
        act(table, alice, "call", sequence=sequence)  # the same click again
    with pytest.raises(StaleAction, match="out of date"):
        act(table, bob, "check", sequence="1")
    assert _frozen(table) == before
    assert_audit_clean()


def test_a_stranger_cannot_act(heads_up, make_player, assert_audit_clean):
    table, _alice, _bob = heads_up
    _start(table)
    with pytest.raises(services.TableError, match="no seat"):
        act(table, make_player(), "fold")
    assert_audit_clean()


def test_rule_3_8_top_up_mid_hand_waits_for_the_hand_to_end(make_player, make_table, assert_audit_clean):
    """RULES 3.8: no chips are added during a hand; a top-up asked mid-hand lands when it ends."""
    table, alice, bob = make_table(), make_player(), make_player()
    sit(table, alice, 1, buy_in=100)
    sit(table, bob, 4)
    _start(table)
    seat = services.top_up(user=alice, table_id=table.pk, amount=50, request_id=str(uuid.uuid4()))
    assert (seat.stack, seat.pending_top_up) == (99, 50)  # small blind posted, top-up waiting
    assert bankroll_balance(alice) == 10_000 - 150
    assert_audit_clean()
    act(table, alice, "fold")
    seat.refresh_from_db()
    assert (seat.stack, seat.pending_top_up) == (149, 0)
    assert_audit_clean()


def test_leaving_on_your_turn_folds_at_once_and_cashes_out_at_the_end(heads_up, assert_audit_clean):
    table, alice, _bob = heads_up
    _start(table)
    services.leave(user=alice, table_id=table.pk)
    assert not Seat.objects.filter(player=alice).exists()
    assert bankroll_balance(alice) == 10_000 - 200 + 199
    assert Hand.objects.get().state == Hand.State.COMPLETE
    assert_audit_clean()


def test_leaving_out_of_turn_folds_when_the_turn_comes(heads_up, assert_audit_clean):
    table, alice, bob = heads_up
    _start(table)
    services.leave(user=bob, table_id=table.pk)
    assert Seat.objects.get(player=bob).state == Seat.State.LEAVING
    assert running_hand(table) is not None
    act(table, alice, "raise", 6)
    assert not Seat.objects.filter(player=bob).exists()
    assert bankroll_balance(bob) == 10_000 - 2
    assert Seat.objects.get(player=alice).stack == 202
    assert_audit_clean()


def test_sitting_out_mid_hand_applies_when_it_ends(heads_up, assert_audit_clean):
    table, alice, bob = heads_up
    _start(table)
    services.sit_out(user=bob, table_id=table.pk)
    assert Seat.objects.get(player=bob).state == Seat.State.PLAYING
    act(table, alice, "fold")
    assert Seat.objects.get(player=bob).state == Seat.State.SITTING_OUT
    assert _start(table) is None
    services.sit_in(user=bob, table_id=table.pk, post_big_blind_now=True)
    assert _start(table) is not None
    assert_audit_clean()


def test_rule_2_7_a_newcomer_waits_for_the_big_blind_to_reach_them(make_player, make_table, assert_audit_clean):
    """RULES 2.7 and 2.9: a player joining a running game is dealt in when the big blind reaches their
    seat. Heads-up alice (seat 1) had the button, bob (seat 4) the big blind; carol sits at seat 2,
    which the big blind reaches after alice's."""
    table, alice, bob = make_table(), make_player("alice"), make_player("bob")
    sit(table, alice, 1)
    sit(table, bob, 4)
    _start(table)
    carol = make_player("carol")
    sit(table, carol, 2, post_now=False)
    act(table, alice, "fold")
    second = _start(table)
    assert [s["seat"] for s in second.config["seats"]] == [1, 4]
    assert second.config["big_blind_seat"] == 1
    act(table, bob, "fold")
    third = _start(table)
    assert third.config["big_blind_seat"] == 2
    assert _blinds(third) == [(1, "small_blind", 1), (2, "big_blind", 2)]
    assert_audit_clean()


def test_rule_2_9_a_newcomer_next_in_line_for_the_big_blind_posts_it_at_once(heads_up, make_player, assert_audit_clean):
    """Carol sits at seat 6, right after bob's big blind (seat 2; 3 to 5 are empty): the big blind
    moves to her next hand."""
    table, alice, _bob = heads_up
    _start(table)
    sit(table, make_player("carol"), 6, post_now=False)
    act(table, alice, "fold")
    second = _start(table)
    assert (second.button, second.config["small_blind_seat"], second.config["big_blind_seat"]) == (1, 2, 6)
    assert _blinds(second) == [(2, "small_blind", 1), (6, "big_blind", 2)]
    assert_audit_clean()


def test_closing_a_table_mid_hand_cashes_everyone_out_after_it(heads_up, assert_audit_clean):
    table, alice, bob = heads_up
    _start(table)
    assert services.close_table(table_id=table.pk) is False
    act(table, alice, "fold")
    table.refresh_from_db()
    assert not table.is_active and not Seat.objects.filter(table=table).exists()
    assert bankroll_balance(alice) + bankroll_balance(bob) == 20_000
    assert _start(table) is None
    assert_audit_clean()


def test_stored_enum_values_never_change():
    """Stored values are in the database: renaming one would orphan rows."""
    assert [c.value for c in Seat.State] == ["waiting_bb", "playing", "sitting_out", "leaving"]
    assert [c.value for c in Hand.State] == ["running", "complete", "cancelled"]  # cancelled: by staff
    from cashier.models import LedgerAccount, LedgerTransaction
    from tables.models import Table

    assert [c.value for c in Table.Variant] == ["limit", "pot_limit"]
    assert [c.value for c in LedgerAccount.Kind] == ["house", "bankroll", "table", "tournament"]
    assert [c.value for c in LedgerTransaction.Kind] == [
        "grant",
        "reload",
        "buy_in",
        "top_up",
        "cash_out",
        "adjustment",
        "tourney_buy_in",
        "tourney_fee",
        "tourney_refund",
        "prize",
        "closure",  # an account closed: its bankroll back to the house
    ]


def test_the_database_keeps_one_running_hand_per_table(heads_up):
    """Whatever writes it, a table has one running hand at most: a second running row is
    refused by the database itself (its partial unique index, which survives the hand
    table's index changes, migration 0018), and a finished hand does not count."""
    from django.db import IntegrityError, transaction

    table, _alice, _bob = heads_up
    hand = _start(table)
    copy = {
        field.attname: getattr(hand, field.attname) for field in Hand._meta.concrete_fields if not field.primary_key
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(**{**copy, "number": hand.number + 1})
    Hand.objects.create(**{**copy, "number": hand.number + 1, "state": Hand.State.COMPLETE})
