"""The auto top-up inside a hand's settlement never fails the hand (issue 25, item 6)."""

import threading
import time

import pytest
from django.db import connection, transaction

from cashier.models import LedgerAccount
from cashier.selectors import bankroll_balance
from tables import services
from tables.models import Hand, Seat
from tables.services.seat_options import set_seat_options

from ..support.tables import act, sit


def _alice_down_six_with_auto_top_up(table, alice, bob):
    set_seat_options(
        user=alice, table_id=table.pk, sit_out_next_big_blind=False, leave_after_hand=False, auto_top_up_to=200
    )
    services.start_hand_if_due(table_id=table.pk)
    act(table, alice, "raise", 6)
    act(table, bob, "call")
    act(table, bob, "bet", 12)  # alice's fold ends the hand: she is down 6, to be topped up


@pytest.mark.django_db(transaction=True)
def test_a_buy_in_elsewhere_at_the_same_moment_never_fails_the_hand(
    needs_postgresql, heads_up, make_table, assert_audit_clean
):
    table, alice, bob = heads_up
    elsewhere = make_table(max_buy_in=10_000)
    _alice_down_six_with_auto_top_up(table, alice, bob)
    locked, spent = threading.Event(), []

    def buy_in_elsewhere_with_the_whole_bankroll():
        try:
            with transaction.atomic():
                account = LedgerAccount.objects.select_for_update().get(kind="bankroll", user=alice)
                locked.set()
                time.sleep(0.5)  # the fold's settlement reads the bankroll now
                spent.append(sit(elsewhere, alice, 1, buy_in=account.balance))
        finally:
            connection.close()

    thread = threading.Thread(target=buy_in_elsewhere_with_the_whole_bankroll, daemon=True)
    thread.start()
    assert locked.wait(10)
    act(table, alice, "fold")  # was InsufficientChips out of settle_hand: the fold rolled back
    thread.join(10)
    assert spent and bankroll_balance(alice) == 0
    seat = Seat.objects.get(table=table, player=alice)
    assert (seat.stack, seat.note) == (194, Seat.Note.TOP_UP_SKIPPED)
    assert Hand.objects.get(table=table).state == Hand.State.COMPLETE
    assert_audit_clean()


@pytest.mark.django_db
def test_a_top_up_the_bankroll_cannot_pay_is_skipped_with_a_note_until_the_next_hand_ends(
    heads_up, make_table, client, assert_audit_clean
):
    table, alice, bob = heads_up
    elsewhere = make_table(max_buy_in=10_000)
    sit(elsewhere, alice, 1, buy_in=9_800)  # the whole bankroll
    _alice_down_six_with_auto_top_up(table, alice, bob)
    act(table, alice, "fold")
    seat = Seat.objects.get(table=table, player=alice)
    assert (seat.stack, seat.note) == (194, Seat.Note.TOP_UP_SKIPPED)
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "Your auto top-up was skipped" in page
    services.leave(user=alice, table_id=elsewhere.pk)  # her bankroll can pay again
    services.start_hand_if_due(table_id=table.pk)
    act(table, bob, "fold")  # the next hand ends: topped up, and the note has been read
    assert Seat.objects.get(table=table, player=alice).note == ""
    assert_audit_clean()
