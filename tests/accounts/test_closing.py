"""Closing an account, downloading one's data, and staff banning a player (issue 25, item 14):
one service (accounts/closing.py) for both ends of an account."""

import csv
import io
import json
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from accounts.closing import DepartureRefused, ban_player, close_account, placeholder_name
from accounts.models import User
from cashier import services as cashier
from cashier.errors import AccountClosed
from cashier.models import LedgerTransaction
from cashier.selectors import bankroll_balance
from tables import services
from tables.models import ChatMessage, Hand, HandEvent, Seat, WaitingListEntry

from ..support.tables import fold_to_the_end, running_hand, sit, start_hand

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "a-Strong-pass-4821"


def _close_through_the_page(user, password=GOOD_PASSWORD, address="203.0.113.7"):
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client, client.post(reverse("close_account"), {"password": password})


def test_closing_cashes_out_the_seats_and_sends_every_chip_to_the_house(heads_up, assert_audit_clean):
    _table, alice, _bob = heads_up
    held = bankroll_balance(alice) + 200  # the bankroll and the seat's stack
    client, page = _close_through_the_page(alice)
    assert page.status_code == 302
    alice = User.objects.get(pk=alice.pk)  # the row stays: nothing cascades
    assert not Seat.objects.filter(player=alice).exists()
    assert bankroll_balance(alice) == 0
    closure = LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.CLOSURE, reference=f"user:{alice.pk}")
    assert closure.entries.get(amount__gt=0).account == cashier.house_account()
    assert closure.entries.get(amount__gt=0).amount == held
    assert not alice.is_active and alice.closed_at is not None and not alice.has_usable_password()
    assert alice.username == placeholder_name(alice.pk)
    assert client.get(reverse("profile")).status_code == 302  # logged out
    assert Client().post(reverse("login"), {"username": "alice", "password": GOOD_PASSWORD}).status_code == 200
    assert_audit_clean()


def test_closing_needs_the_password_and_a_wrong_one_changes_nothing(heads_up):
    _table, alice, _bob = heads_up
    _client, page = _close_through_the_page(alice, password="not-my-password")
    assert page.status_code == 200
    assert b"That is not your password." in page.content
    assert User.objects.get(pk=alice.pk).is_active
    assert Seat.objects.filter(player=alice).exists()


def test_closing_is_refused_while_dealt_into_a_running_hand_and_works_once_it_ends(heads_up, assert_audit_clean):
    table, alice, bob = heads_up
    start_hand(table)
    with pytest.raises(DepartureRefused, match="you can close your account when it ends"):
        close_account(user=alice)
    _client, page = _close_through_the_page(alice)
    assert page.status_code == 200 and b"you can close your account when it ends" in page.content
    assert User.objects.get(pk=alice.pk).is_active and Seat.objects.filter(player=alice).exists()
    fold_to_the_end(table, {1: alice, 2: bob})
    close_account(user=alice)
    assert not Seat.objects.filter(player=alice).exists()
    assert_audit_clean()


def test_the_closed_name_is_replaced_in_every_view_and_never_given_again(heads_up, assert_audit_clean):
    table, alice, bob = heads_up
    hand = start_hand(table)
    fold_to_the_end(table, {1: alice, 2: bob})
    ChatMessage.objects.create(table=table, author=alice, text="gl all", created_at=hand.started_at)
    close_account(user=alice)
    placeholder = placeholder_name(alice.pk)
    hand.refresh_from_db()
    assert {s["seat"]: s["name"] for s in hand.config["seats"]} == {1: placeholder, 2: "bob"}
    started = HandEvent.objects.get(hand=hand, type="hand_started").payload
    assert {s["seat"]: s["name"] for s in started["seats"]} == {1: placeholder, 2: "bob"}
    assert not ChatMessage.objects.filter(params__player="alice").exists()
    viewer = Client()
    viewer.force_login(bob)
    for url in (
        reverse("history:detail", args=[hand.pk]),
        reverse("history:export_text", args=[hand.pk]),
        reverse("history:export_history"),
        reverse("table", args=[table.pk]),
    ):
        page = viewer.get(url)
        body = b"".join(page.streaming_content) if page.streaming else page.content
        assert page.status_code == 200, url
        assert b"alice" not in body, url
    assert placeholder.encode() in viewer.get(reverse("history:export_text", args=[hand.pk])).content
    # The name is never given again, whatever its case or look.
    for name in ("alice", "Alice", "\u0430lice"):
        signup = Client().post(
            reverse("signup"), {"username": name, "password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD}
        )
        assert signup.status_code == 200, name
    assert User.objects.filter(name_key="alice").count() == 1
    assert_audit_clean()


def test_no_chip_comes_into_a_closed_bankroll(make_player, django_user_model, settings):
    player = make_player(username="gone")
    close_account(user=player)
    settings.CHIPS_RELOAD_EVERY = settings.CHIPS_RELOAD_EVERY * 0  # eligible by time and by chips
    with pytest.raises(AccountClosed):
        cashier.reload(user=player, request_id="a1b2c3d4e5f6")
    staff = django_user_model.objects.create_superuser(username="boss", password="x", email="b@e.com")
    with pytest.raises(AccountClosed):
        cashier.adjust(user=player, amount=500, reason="sorry", staff=staff, request_id="f6e5d4c3b2a1")
    assert bankroll_balance(player) == 0


def test_closing_takes_the_player_off_every_waiting_list(make_player, make_table):
    table = make_table(seat_count=2)
    first, second, waiting = make_player(), make_player(), make_player()
    sit(table, first, 1)
    sit(table, second, 2)
    services.join_waiting_list(user=waiting, table_id=table.pk)
    close_account(user=waiting)
    assert not WaitingListEntry.objects.filter(player=waiting).exists()


def test_a_player_downloads_everything_the_room_holds_about_them(heads_up):
    table, alice, bob = heads_up
    hand = start_hand(table)
    fold_to_the_end(table, {1: alice, 2: bob})
    ChatMessage.objects.create(table=table, author=alice, text="nice hand", created_at=hand.started_at)
    client = Client()
    client.force_login(alice)
    response = client.get(reverse("download_data"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    assert {"profile.json", "ledger.csv", "hands/pokerstars.txt", "seats.csv", "timeouts.csv", "muted_players.csv",
            "chat.csv"} <= names  # fmt: skip
    assert "Heads-up PL" in archive.read("seats.csv").decode()
    assert any(name.startswith("hands/phh/") and name.endswith(".phh") for name in names)
    profile = json.loads(archive.read("profile.json"))
    assert profile["username"] == "alice" and profile["bankroll"] == bankroll_balance(alice)
    ledger = list(csv.DictReader(io.StringIO(archive.read("ledger.csv").decode())))
    assert {row["kind"] for row in ledger} >= {"grant", "buy_in"}
    assert sum(int(row["chips"]) for row in ledger) == bankroll_balance(alice)
    assert "alice" in archive.read("hands/pokerstars.txt").decode()
    assert "nice hand" in archive.read("chat.csv").decode()


def test_data_downloads_are_limited_per_account(make_player, settings):
    settings.ACCOUNT_DATA_RATE = "2/h"
    client = Client()
    client.force_login(make_player())
    assert [client.get(reverse("download_data")).status_code for _ in range(3)] == [200, 200, 429]


# --- the same service: staff ban a player -------------------------------------------------


def _ban_in_the_admin(*players):
    staff = User.objects.create_superuser(username="boss", password="x", email="b@e.com")
    admin = Client()
    admin.force_login(staff)
    return admin.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "ban", "_selected_action": [p.pk for p in players]},
    )


def test_a_ban_cashes_out_the_seats_keeps_the_chips_and_refuses_log_in(heads_up, assert_audit_clean):
    _table, alice, _bob = heads_up
    owned = bankroll_balance(alice) + 200
    assert _ban_in_the_admin(alice).status_code == 302
    alice = User.objects.get(pk=alice.pk)
    assert alice.banned_at is not None and not alice.is_active and alice.username == "alice"
    assert not Seat.objects.filter(player=alice).exists()
    assert bankroll_balance(alice) == owned  # the chips are kept
    assert not LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.CLOSURE).exists()
    refused = Client().post(reverse("login"), {"username": "alice", "password": GOOD_PASSWORD})
    assert refused.status_code == 200  # the log-in form again, not logged in
    assert_audit_clean()


def test_a_ban_during_a_hand_folds_the_seat_and_cashes_it_out_when_the_hand_ends(heads_up, assert_audit_clean):
    table, alice, bob = heads_up
    start_hand(table)  # alice (the button) acts first: bob's seat is not to act
    ban_player(user=bob)
    assert Seat.objects.get(player=bob).state == Seat.State.LEAVING
    fold_to_the_end(table, {1: alice, 2: bob})
    assert running_hand(table) is None
    assert not Seat.objects.filter(player=bob).exists()
    assert bankroll_balance(bob) > 0  # cashed out into the kept bankroll
    assert Hand.objects.filter(table=table, state=Hand.State.COMPLETE).count() == 1
    assert_audit_clean()


def test_staff_cannot_be_banned(django_user_model):
    staff = django_user_model.objects.create_superuser(username="chief", password="x", email="c@e.com")
    with pytest.raises(DepartureRefused):
        ban_player(user=staff)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["ban", "close"])
def test_a_ban_or_a_closing_closes_every_open_socket_of_the_player(heads_up, how):
    from asgiref.sync import async_to_sync

    from ..support.sockets import db, table_viewer

    table, alice, bob = heads_up

    def end():
        if how == "ban":
            ban_player(user=alice)
        else:
            close_account(user=alice)

    async def scenario():
        tab = await table_viewer(table, alice).connect()
        other = await table_viewer(table, bob).connect()
        await db(end)
        assert await tab.closed_with() == 4401  # SESSION_ENDED_CLOSE_CODE: the page reloads
        await other.close()

    async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("needs_postgresql")
@pytest.mark.parametrize("round_", range(4))
def test_closing_races_a_buy_in_at_another_table_and_no_chip_is_stranded(make_player, make_table, round_):
    """Whatever commits first, the account ends closed with no seat, an empty bankroll and a
    clean audit: a seat bought just before the closing locked the bankroll is seen and the
    closing starts again; a buy-in after it finds no chips."""
    import uuid

    from cashier.audit import run_audit
    from cashier.errors import CashierError

    from ..support.races import at_once

    player, tables = make_player(), [make_table(), make_table()]
    sit(tables[0], player, 1)
    calls = [
        lambda: close_account(user=player),
        lambda: services.take_seat(user=player, table_id=tables[1].pk, seat_number=1, buy_in=100,
                                   post_big_blind_now=False, request_id=uuid.uuid4().hex),
    ]  # fmt: skip
    at_once(calls if round_ % 2 else calls[::-1], expected=(DepartureRefused, CashierError, *services.REFUSALS))
    player = User.objects.get(pk=player.pk)
    assert player.closed_at is not None
    assert not Seat.objects.filter(player=player).exists()
    assert bankroll_balance(player) == 0
    report = run_audit()
    assert report.ok, report.problems
