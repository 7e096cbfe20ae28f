"""Trust: no replayed request or admin click creates, strands or moves chips it should not.

Each test is named after what a hostile player (or a careless click) tried, and fails on a
room that trusts a client's key, counts only the bankroll for a reload, or lets the admin
untick "is active" without cashing anyone out.
"""

import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from cashier import services as cashier
from cashier.audit import run_audit
from cashier.errors import IdempotencyConflict, ReloadNotAllowed, RequestAlreadyUsed
from cashier.models import LedgerTransaction
from cashier.selectors import bankroll_balance, chips_owned, chips_owned_by, reload_status
from tables import services
from tables.models import Seat, SeatSession, Table

from ..support.tables import act, sit

pytestmark = pytest.mark.django_db


def test_finding_1_a_replayed_buy_in_after_leaving_creates_no_chips(make_player, make_table, assert_audit_clean):
    """Sit with request K (bankroll -200), leave (+200), send the same sit with K again: refused,
    nothing moves, and another player's cash-out still finds its chips in the escrow."""
    table, mallory, victim = make_table(), make_player(), make_player()
    sit(table, victim, 1, buy_in=200)
    sit(table, mallory, 2, buy_in=200, request_id="replayed-request-k")
    services.leave(user=mallory, table_id=table.pk)
    with pytest.raises(services.RepeatedRequest, match="already made"):
        sit(table, mallory, 2, buy_in=200, request_id="replayed-request-k")
    assert not Seat.objects.filter(player=mallory).exists()
    assert bankroll_balance(mallory) == 10_000
    assert cashier.table_account(table).balance == 200
    services.leave(user=victim, table_id=table.pk)
    assert bankroll_balance(victim) == 10_000
    assert_audit_clean()


def test_finding_1_a_request_pays_for_one_movement_only(make_player, make_table, assert_audit_clean):
    """A top-up's request belongs to one occupancy and one amount; a sit's request cannot top up."""
    table, player = make_table(), make_player()
    sit(table, player, 1, buy_in=100, request_id="sit-request-1")
    with pytest.raises(services.RepeatedRequest):  # the sit form's request again, as a top-up
        services.top_up(user=player, table_id=table.pk, amount=50, request_id="sit-request-1")
    services.top_up(user=player, table_id=table.pk, amount=50, request_id="top-up-request-1")
    for amount in (50, 20):  # the same request again, and with another amount
        with pytest.raises(services.RepeatedRequest, match="already made"):
            services.top_up(user=player, table_id=table.pk, amount=amount, request_id="top-up-request-1")
    services.leave(user=player, table_id=table.pk)
    sit(table, player, 1, buy_in=150, request_id="sit-request-2")  # at least the stack left with (RULES 7.5)
    with pytest.raises(services.RepeatedRequest):  # the old top-up's request, for the new occupancy
        services.top_up(user=player, table_id=table.pk, amount=50, request_id="top-up-request-1")
    assert Seat.objects.get(player=player).stack == 150
    assert bankroll_balance(player) == 9_850
    assert_audit_clean()


def test_finding_1_the_ledger_itself_refuses_a_request_for_a_second_movement(make_player, make_table):
    """Below the services: the ledger lets one request pay for one movement (a unique constraint)."""
    table, player = make_table(), make_player()
    cashier.buy_in(user=player, table=table, amount=100, occupancy="seat-session:1", request_id="request-0001")
    with pytest.raises(RequestAlreadyUsed, match="already made"):
        cashier.buy_in(user=player, table=table, amount=100, occupancy="seat-session:2", request_id="request-0001")
    with pytest.raises(IdempotencyConflict):  # one occupancy, one buy-in
        cashier.buy_in(user=player, table=table, amount=50, occupancy="seat-session:1", request_id="request-0002")
    assert bankroll_balance(player) == 9_900


def test_finding_1_every_seat_is_bound_to_its_paid_occupancy(make_player, make_table, assert_audit_clean):
    table, player = make_table(), make_player()
    seat = sit(table, player, 3, buy_in=120)
    occupancy = seat.session
    assert (occupancy.table, occupancy.player, occupancy.seat_number, occupancy.buy_in) == (table, player, 3, 120)
    buy_in = LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.BUY_IN)
    assert (buy_in.idempotency_key, buy_in.reference) == (f"buy-in:{occupancy.reference}", occupancy.reference)
    services.leave(user=player, table_id=table.pk)
    occupancy.refresh_from_db()
    assert occupancy.ended_at is not None and occupancy.cashed_out == 120
    assert LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.CASH_OUT).reference == occupancy.reference
    assert_audit_clean()


def test_the_audit_finds_a_seat_nobody_paid_for(make_player, make_table):
    """The chips the issue's replay created: a seat whose stack no buy-in paid for."""
    table, player = make_table(), make_player()
    occupancy = SeatSession.objects.create(table=table, seat_number=1, player=player, buy_in=200)
    Seat.objects.create(table=table, number=1, player=player, session=occupancy, stack=200)
    problems = run_audit().problems
    assert any("buy-in 200 but the ledger has []" in problem for problem in problems), problems
    assert any("escrow 0 but stacks 200" in problem for problem in problems), problems


def test_the_audit_names_a_seat_without_its_open_occupancy_and_an_occupancy_cashed_out_wrongly(make_player, make_table):
    """Each of the occupancy checks, with the seat or the occupancy named in its line."""
    table, player = make_table(name="Audited"), make_player("alice")
    seat = sit(table, player, 1)
    assert not run_audit().problems
    SeatSession.objects.filter(pk=seat.session_id).update(seat_number=5)
    assert run_audit().problems == [f"{seat}: its occupancy #{seat.session_id} is for another seat"]
    SeatSession.objects.filter(pk=seat.session_id).update(seat_number=1, ended_at=timezone.now(), cashed_out=200)
    problems = run_audit().problems
    assert problems == [
        f"{seat}: no open seat occupancy",
        f"{SeatSession.objects.get(pk=seat.session_id)}: ended with 200 but the ledger cashed out []",
    ]  # and the escrow still holds the seat's chips: no line about it


def test_finding_2_reload_counts_the_chips_at_every_table(make_player, make_table, assert_audit_clean):
    """Buy in for most of the bankroll, then ask for a reload: the chips at the table count."""
    player = make_player()
    tables = [make_table(max_buy_in=5_000, min_buy_in=100) for _ in range(2)]
    sit(tables[0], player, 1, buy_in=5_000)
    sit(tables[1], player, 1, buy_in=4_500)
    assert bankroll_balance(player) == 500
    with pytest.raises(ReloadNotAllowed, match="tables included"):
        cashier.reload(user=player, request_id=uuid.uuid4().hex)
    assert reload_status(user=player).eligible is False
    assert bankroll_balance(player) == 500
    assert_audit_clean()


def test_finding_2_a_pending_top_up_and_a_running_hand_count_too(make_player, make_table, assert_audit_clean):
    player, other = make_player(), make_player()
    table = make_table(max_buy_in=9_600, min_buy_in=100)
    sit(table, player, 1, buy_in=9_000)
    sit(table, other, 2, buy_in=200)
    services.start_hand_if_due(table_id=table.pk)
    act(table, player, "raise", 6)  # chips in the pot are still the player's until the hand is settled
    services.top_up(user=player, table_id=table.pk, amount=500, request_id=uuid.uuid4().hex)  # waits for the hand
    assert bankroll_balance(player) == 500
    assert chips_owned(player) == 500 + 9_000 + 500
    with pytest.raises(ReloadNotAllowed):
        cashier.reload(user=player, request_id=uuid.uuid4().hex)
    assert_audit_clean()


def test_what_many_players_own_is_read_at_once_and_agrees_with_each_alone(make_player, make_table,
                                                                          django_assert_num_queries):  # fmt: skip
    """chips_owned_by (the adversaries' check after every step) asks once for any number of players."""
    player, other, away = make_player(), make_player(), make_player()
    tables = [make_table(max_buy_in=9_600, min_buy_in=100) for _ in range(2)]
    sit(tables[0], player, 1, buy_in=9_000)
    sit(tables[0], other, 2, buy_in=200)
    sit(tables[1], player, 1, buy_in=300)
    services.start_hand_if_due(table_id=tables[0].pk)
    act(tables[0], player, "raise", 6)
    services.top_up(user=other, table_id=tables[0].pk, amount=100, request_id=uuid.uuid4().hex)
    alone = {user.pk: chips_owned(user) for user in (player, other, away)}
    with django_assert_num_queries(3):  # the bankrolls, the seats, the running hands
        assert chips_owned_by([player.pk, other.pk, away.pk]) == alone
    assert alone == dict.fromkeys(alone, 10_000)  # no hand is over: each still owns the grant


def test_finding_2_a_reload_brings_everything_owned_up_to_the_grant(make_player, make_table, django_user_model,
                                                                    assert_audit_clean):  # fmt: skip
    player, table = make_player(), make_table()
    staff = django_user_model.objects.create_user(username="staff", password="x", is_staff=True)
    sit(table, player, 1, buy_in=200)
    cashier.adjust(user=player, amount=-9_400, reason="test: a losing streak", staff=staff, request_id="adjust-0001")
    assert chips_owned(player) == 400 + 200
    reloaded = cashier.reload(user=player, request_id=uuid.uuid4().hex)
    assert reloaded.amount == 9_400
    assert (bankroll_balance(player), chips_owned(player)) == (9_800, 10_000)
    assert_audit_clean()


def test_finding_6_the_admin_cannot_untick_is_active(client, django_user_model, make_player, make_table,
                                                     assert_audit_clean):  # fmt: skip
    """Closing strands no chips: "is active" is not a field of the admin form; the actions change it."""
    client.force_login(django_user_model.objects.create_superuser(username="boss", password="x"))
    table, player = make_table(), make_player()
    sit(table, player, 2, buy_in=150)
    url = reverse("admin:tables_table_change", args=[table.pk])
    form = client.get(url).content.decode()
    assert 'name="is_active"' not in form
    fields = {
        "name": table.name, "variant": table.variant, "stake_small": 1, "stake_big": 2, "seat_count": 6,
        "min_buy_in": 40, "max_buy_in": 200, "action_seconds": 10, "countdown_seconds": 20,
        "reconnect_grace_seconds": 20, "seats-TOTAL_FORMS": 1, "seats-INITIAL_FORMS": 1,
        "seats-MIN_NUM_FORMS": 0, "seats-MAX_NUM_FORMS": 1000,
    }  # fmt: skip
    client.post(url, fields)  # "is_active" left out, as an unticked box is
    table.refresh_from_db()
    assert table.is_active and Seat.objects.filter(table=table).exists()
    client.post(reverse("admin:tables_table_changelist"), {"action": "close_tables", "_selected_action": [table.pk]})
    table.refresh_from_db()
    assert not table.is_active and bankroll_balance(player) == 10_000
    client.post(reverse("admin:tables_table_changelist"), {"action": "reopen_tables", "_selected_action": [table.pk]})
    assert Table.objects.get(pk=table.pk).is_active
    assert_audit_clean()


def test_requests_that_change_nothing_are_refused_and_bump_no_version(make_player, make_table, assert_audit_clean):
    table, player = make_table(), make_player()
    sit(table, player, 1)

    def version():
        return Table.objects.get(pk=table.pk).version

    services.sit_out(user=player, table_id=table.pk)
    before = version()
    with pytest.raises(services.TableError, match="already sitting out"):
        services.sit_out(user=player, table_id=table.pk)
    assert version() == before
    services.sit_in(user=player, table_id=table.pk, post_big_blind_now=False)
    before = version()
    with pytest.raises(services.TableError, match="not sitting out"):
        services.sit_in(user=player, table_id=table.pk, post_big_blind_now=False)
    assert version() == before
    assert_audit_clean()
