"""Staff tools for a live room: each a service with its check, each written to the audit log of
staff actions, each reachable from the admin."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from cashier.models import LedgerAccount
from cashier.selectors import bankroll_balance
from operations import staff
from operations.models import Maintenance, StaffAction
from tables.models import ChatMessage, Hand, HandPlayer, Seat
from tables.presentation.chat import chat_line
from tables.services import run_clock

from ..support.tables import act, running_hand, start_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(django_user_model):
    return django_user_model.objects.create_superuser(username="boss", password="x")


@pytest.fixture
def staff_client(client, boss):
    client.force_login(boss)
    return client


def escrow(table) -> int:
    return LedgerAccount.objects.get(kind=LedgerAccount.Kind.TABLE, table=table).balance


# --- cancel a running hand ----------------------------------------------------------------


def test_cancelling_a_hand_gives_every_stack_back_and_leaves_the_escrow(heads_up, boss, assert_audit_clean):
    table, alice, bob = heads_up
    hand = start_hand(table)
    act(table, alice, "raise", amount=6)  # chips in the pot
    act(table, bob, "call")
    before = escrow(table)
    assert sorted(Seat.objects.filter(table=table).values_list("stack", flat=True)) != [200, 200]

    record = staff.cancel_hand(staff=boss, hand_id=hand.pk, reason="a stuck deal")

    hand.refresh_from_db()
    assert hand.state == Hand.State.CANCELLED and hand.ended_at is not None and hand.turn_deadline is None
    assert dict(Seat.objects.filter(table=table).values_list("number", "stack")) == {1: 200, 2: 200}
    assert escrow(table) == before
    assert all(p.final_stack == p.starting_stack for p in HandPlayer.objects.filter(hand=hand))
    assert record.kind == StaffAction.Kind.CANCEL_HAND and record.hand == hand and record.detail == "a stuck deal"
    line = ChatMessage.objects.filter(table=table).first()
    with translation.override("es"):
        assert "cancelada" in chat_line(line).text
    assert_audit_clean()
    # The table plays on: the next hand is dealt.
    run_clock()
    assert running_hand(table) is not None and running_hand(table).number == hand.number + 1


def test_a_cancelled_hand_is_marked_in_the_history_and_has_no_exports_or_proof(heads_up, boss, client):
    table, alice, _bob = heads_up
    hand = start_hand(table)
    staff.cancel_hand(staff=boss, hand_id=hand.pk)
    client.force_login(alice)
    assert "cancelled" in client.get(reverse("history:list")).content.decode()
    page = client.get(reverse("history:detail", args=[hand.pk])).content.decode()
    assert "cancelled by the staff" in page and "Export" not in page
    assert client.get(reverse("history:proof", args=[hand.pk])).status_code == 404
    assert client.get(reverse("history:export_text", args=[hand.pk])).status_code == 404


def test_a_hand_that_ended_or_a_player_cannot_be_cancelled(heads_up, boss):
    table, alice, _bob = heads_up
    hand = start_hand(table)
    with pytest.raises(staff.StaffToolRefused):
        staff.cancel_hand(staff=alice, hand_id=hand.pk)
    act(table, alice, "fold")
    with pytest.raises(staff.StaffToolRefused, match="not running"):
        staff.cancel_hand(staff=boss, hand_id=hand.pk)
    assert not StaffAction.objects.exists()


def test_the_admin_cancels_the_selected_running_hand(heads_up, staff_client, assert_audit_clean):
    table, _alice, _bob = heads_up
    hand = start_hand(table)
    response = staff_client.post(
        reverse("admin:tables_hand_changelist"), {"action": "cancel_hands", "_selected_action": [hand.pk]}, follow=True
    )
    assert b"cancelled." in response.content
    hand.refresh_from_db()
    assert hand.state == Hand.State.CANCELLED
    log = staff_client.get(reverse("admin:operations_staffaction_changelist")).content.decode()
    assert "Cancel a running hand" in log
    assert_audit_clean()


# --- stand a player up ----------------------------------------------------------------------


def test_standing_a_player_up_between_hands_cashes_them_out(heads_up, boss, assert_audit_clean):
    table, alice, _bob = heads_up
    bankroll = bankroll_balance(alice)
    staff.stand_up(staff=boss, table_id=table.pk, player_id=alice.pk)
    assert not Seat.objects.filter(table=table, player=alice).exists()
    assert bankroll_balance(alice) == bankroll + 200
    assert StaffAction.objects.get().player == alice
    assert_audit_clean()


def test_standing_a_player_up_in_a_hand_cashes_them_out_when_it_ends(heads_up, staff_client, assert_audit_clean):
    table, alice, bob = heads_up
    start_hand(table)
    seat = Seat.objects.get(table=table, player=bob)
    staff_client.post(
        reverse("admin:operations_seatedplayer_changelist"), {"action": "stand_up", "_selected_action": [seat.pk]}
    )
    seat.refresh_from_db()
    assert seat.state == Seat.State.LEAVING
    act(table, alice, "call")  # bob's turn comes: folded as he leaves
    assert running_hand(table) is None
    assert not Seat.objects.filter(table=table, player=bob).exists()
    assert_audit_clean()


def test_a_player_without_a_seat_cannot_be_stood_up(heads_up, boss, make_player):
    table, _alice, _bob = heads_up
    with pytest.raises(staff.StaffToolRefused):
        staff.stand_up(staff=boss, table_id=table.pk, player_id=make_player().pk)


# --- dealer message ----------------------------------------------------------------------------


def test_a_dealer_message_reaches_every_open_table_in_each_readers_words(heads_up, make_table, make_player, boss):
    table, _alice, _bob = heads_up
    other = make_table()
    closed = make_table(is_active=False)
    staff.send_dealer_message(staff=boss, text="  The room  restarts at 04:00 UTC. ")
    lines = ChatMessage.objects.filter(kind=ChatMessage.Kind.STAFF)
    assert sorted(line.table_id for line in lines) == sorted([table.pk, other.pk])
    assert not lines.filter(table=closed).exists()
    with translation.override("es"):
        assert chat_line(lines[0]).text == "Del personal de la sala: The room restarts at 04:00 UTC."
    assert chat_line(lines[0]).text == "From the room's staff: The room restarts at 04:00 UTC."
    assert StaffAction.objects.get().kind == StaffAction.Kind.DEALER_MESSAGE


def test_a_dealer_message_to_one_table_from_the_admin(heads_up, make_table, staff_client):
    table, _alice, _bob = heads_up
    other = make_table()
    response = staff_client.post(
        reverse("admin:operations_dealermessage_add"), {"table": table.pk, "text": "Seat 3, your phone."}, follow=True
    )
    assert response.status_code == 200
    assert ChatMessage.objects.filter(kind=ChatMessage.Kind.STAFF, table=table).count() == 1
    assert not ChatMessage.objects.filter(kind=ChatMessage.Kind.STAFF, table=other).exists()
    empty = staff_client.post(reverse("admin:operations_dealermessage_add"), {"table": table.pk, "text": "   "})
    assert empty.status_code == 200 and ChatMessage.objects.filter(kind=ChatMessage.Kind.STAFF).count() == 1


# --- maintenance ---------------------------------------------------------------------------------


def test_maintenance_lets_running_hands_finish_and_deals_no_new_one(heads_up, boss, client):
    table, alice, _bob = heads_up
    start_hand(table)
    reopens = timezone.now() + timedelta(hours=1)
    staff.start_maintenance(staff=boss, reopens_at=reopens)
    act(table, alice, "fold")  # the running hand finishes
    assert running_hand(table) is None
    run_clock()
    assert running_hand(table) is None
    lobby = client.get(reverse("lobby")).content.decode()
    assert "closed for maintenance" in lobby and f"{reopens:%Y-%m-%d %H:%M}" in lobby
    spanish = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "cerrada por mantenimiento" in spanish
    with translation.override("en"), pytest.raises(staff.StaffToolRefused, match="already"):
        staff.start_maintenance(staff=boss, reopens_at=reopens)
    staff.end_maintenance(staff=boss)
    run_clock()
    assert running_hand(table) is not None
    assert "maintenance" not in client.get(reverse("lobby")).content.decode()
    assert list(StaffAction.objects.order_by("pk").values_list("kind", flat=True)) == [
        StaffAction.Kind.MAINTENANCE_START,
        StaffAction.Kind.MAINTENANCE_END,
    ]


def test_maintenance_from_the_admin(heads_up, staff_client):
    reopens = (timezone.now() + timedelta(hours=2)).replace(microsecond=0)
    staff_client.post(
        reverse("admin:operations_maintenance_add"),
        {"reopens_at_0": reopens.strftime("%Y-%m-%d"), "reopens_at_1": reopens.strftime("%H:%M:%S")},
    )
    window = Maintenance.objects.get()
    assert window.reopens_at == reopens and window.ended_at is None
    staff_client.post(
        reverse("admin:operations_maintenance_changelist"),
        {"action": "end_maintenance", "_selected_action": [window.pk]},
    )
    window.refresh_from_db()
    assert window.ended_at is not None
