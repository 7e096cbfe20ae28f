"""The double-entry chip ledger: balanced, idempotent, never negative."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from cashier import services as cashier
from cashier.errors import IdempotencyConflict, InsufficientChips, InvalidAmount, InvalidRequest, ReloadNotAllowed
from cashier.models import LedgerAccount, LedgerEntry, LedgerTransaction
from cashier.selectors import bankroll_balance


def test_signup_grant_issues_ten_thousand_from_the_house(make_player, assert_ledger_clean):
    player = make_player()
    assert bankroll_balance(player) == 10_000
    assert assert_ledger_clean() == 10_000
    grant = LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.GRANT)
    assert sorted(grant.entries.values_list("amount", flat=True)) == [-10_000, 10_000]


def test_buy_in_and_cash_out_move_chips_through_the_table_escrow(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    cashier.buy_in(user=player, table=table, amount=150, occupancy="seat-session:1", request_id="request-0001")
    assert bankroll_balance(player) == 9_850
    assert cashier.table_account(table).balance == 150
    cashier.cash_out(user=player, table=table, amount=150, occupancy="seat-session:1")
    assert bankroll_balance(player) == 10_000
    assert cashier.table_account(table).balance == 0
    assert_ledger_clean()


def test_a_retried_buy_in_for_the_same_occupancy_debits_once(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    first = cashier.buy_in(user=player, table=table, amount=100, occupancy="seat-session:7", request_id="request-0002")
    again = cashier.buy_in(user=player, table=table, amount=100, occupancy="seat-session:7", request_id="request-0002")
    assert first.transaction.pk == again.transaction.pk
    assert (first.replayed, again.replayed) == (False, True)
    assert bankroll_balance(player) == 9_900
    assert_ledger_clean()


def test_a_second_buy_in_for_one_occupancy_with_other_data_is_refused(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    cashier.buy_in(user=player, table=table, amount=100, occupancy="seat-session:7", request_id="request-0004")
    with pytest.raises(IdempotencyConflict, match="already used"):
        cashier.buy_in(user=player, table=table, amount=120, occupancy="seat-session:7", request_id="request-0005")
    assert bankroll_balance(player) == 9_900
    assert_ledger_clean()


def test_keys_are_built_by_the_cashier_from_what_the_chips_pay_for(make_player, make_table):
    player, staff, table = make_player(), make_player(), make_table()
    moves = [
        cashier.buy_in(user=player, table=table, amount=100, occupancy="seat-session:7", request_id="request-0006"),
        cashier.top_up(user=player, table=table, amount=10, occupancy="seat-session:7", request_id="a1b2c3d4e5"),
        cashier.cash_out(user=player, table=table, amount=110, occupancy="seat-session:7"),
        cashier.adjust(user=player, amount=5, reason="goodwill", staff=staff, request_id="a1b2c3d4e5"),
    ]
    assert [m.transaction.idempotency_key for m in moves] == [
        "buy-in:seat-session:7",
        "top-up:seat-session:7:a1b2c3d4e5",
        "cash-out:seat-session:7",
        f"adjustment:staff-{staff.pk}:a1b2c3d4e5",
    ]
    assert [m.transaction.reference for m in moves] == ["seat-session:7"] * 3 + [f"user:{player.pk}"]


@pytest.mark.parametrize("occupancy", ["", "buy-in:1", "seat-session:1:x", "seat session 1", None, 7])
def test_a_movement_that_names_nothing_it_pays_for_is_refused(occupancy, make_player, make_table):
    player, table = make_player(), make_table()
    with pytest.raises(InvalidRequest, match="must name what it pays for"):
        cashier.buy_in(user=player, table=table, amount=100, occupancy=occupancy, request_id="request-0007")
    assert bankroll_balance(player) == 10_000


@pytest.mark.parametrize("request_id", ["", "short", "x" * 65, "has space!", "a;DROP", None, 12345678])
def test_a_request_id_the_server_did_not_make_is_refused(request_id, make_player, make_table):
    player, table = make_player(), make_table()
    with pytest.raises(InvalidRequest, match="not valid"):
        cashier.top_up(user=player, table=table, amount=10, occupancy="seat-session:1", request_id=request_id)
    assert bankroll_balance(player) == 10_000


def test_buy_in_above_the_bankroll_is_refused_and_changes_nothing(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    before = LedgerTransaction.objects.count()
    with pytest.raises(InsufficientChips, match="10,000 available, 10,001 needed"):
        cashier.buy_in(user=player, table=table, amount=10_001, occupancy="seat-session:1", request_id="request-0008")
    assert bankroll_balance(player) == 10_000
    assert LedgerTransaction.objects.count() == before
    assert_ledger_clean()


@pytest.mark.parametrize("amount", [0, -5, 12.5, "100", True, None])
def test_bad_amounts_are_refused_with_a_clear_message(amount, make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    with pytest.raises(InvalidAmount, match="chips"):
        cashier.buy_in(user=player, table=table, amount=amount, occupancy="seat-session:1", request_id="request-0009")
    assert bankroll_balance(player) == 10_000
    assert not LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.BUY_IN).exists()
    assert_ledger_clean()


def test_the_database_itself_refuses_a_negative_bankroll(make_player):
    player = make_player()
    account = cashier.bankroll_account(player)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.filter(pk=account.pk).update(balance=-1)


def test_reload_needs_a_low_bankroll(make_player, assert_ledger_clean):
    player = make_player()
    with pytest.raises(ReloadNotAllowed, match="fewer than 1,000 chips"):
        cashier.reload(user=player, request_id="reload-0000")
    assert bankroll_balance(player) == 10_000
    assert_ledger_clean()


def test_reload_tops_up_to_the_grant_once_per_six_hours(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table(max_buy_in=10_000)
    cashier.buy_in(user=player, table=table, amount=9_500, occupancy="seat-session:1", request_id="request-0010")
    cashier.reload(user=player, request_id="reload-0001")
    assert bankroll_balance(player) == 10_000
    cashier.buy_in(user=player, table=table, amount=9_800, occupancy="seat-session:2", request_id="request-0011")
    with pytest.raises(ReloadNotAllowed, match="again in"):
        cashier.reload(user=player, request_id="reload-0002", now=timezone.now() + timedelta(hours=5))
    assert bankroll_balance(player) == 200
    cashier.reload(user=player, request_id="reload-0003", now=timezone.now() + timedelta(hours=6, minutes=1))
    assert bankroll_balance(player) == 10_000
    assert_ledger_clean()


def test_staff_adjustment_needs_a_reason_and_is_recorded(make_player, django_user_model, assert_ledger_clean):
    player = make_player()
    staff = django_user_model.objects.create_user(username="staff", password="x", is_staff=True)
    with pytest.raises(InvalidAmount, match="reason"):
        cashier.adjust(user=player, amount=50, reason="  ", staff=staff, request_id="adjust-0000")
    record = cashier.adjust(
        user=player, amount=-300, reason="chargeback test", staff=staff, request_id="adjust-0001"
    ).transaction
    assert record.memo == "chargeback test" and record.created_by == staff
    assert bankroll_balance(player) == 9_700
    with pytest.raises(InsufficientChips):
        cashier.adjust(user=player, amount=-9_701, reason="too much", staff=staff, request_id="adjust-0002")
    assert_ledger_clean()


def test_the_audit_detects_a_tampered_balance(make_player):
    from cashier.audit import run_audit

    player = make_player()
    LedgerAccount.objects.filter(user=player).update(balance=10_001)
    report = run_audit()
    assert not report.ok
    assert any("entries sum to 10000" in p for p in report.problems)
    assert any("sum to 1, not 0" in p for p in report.problems)


def test_the_audit_detects_a_tampered_entry_and_counts_what_the_house_issued(make_player, django_assert_num_queries):
    from cashier.audit import ledger_problems

    players = [make_player() for _ in range(3)]
    with django_assert_num_queries(3):  # whatever the number of accounts and entries
        problems, accounts, issued = ledger_problems()
    assert (problems, accounts, issued) == ([], 4, 30_000)  # three bankrolls and the house
    entry = LedgerEntry.objects.filter(account__user=players[0]).get()
    LedgerEntry.objects.filter(pk=entry.pk).update(amount=entry.amount + 5)
    with django_assert_num_queries(4):  # the same three, and one naming the accounts found wrong
        problems, _, _ = ledger_problems()
    assert problems == [
        f"bankroll of {players[0]}: balance 10000 but entries sum to 10005",
        f"transaction #{entry.transaction_id} does not sum to zero",
    ]


def test_audit_chips_command_reports_clean(make_player, capsys):
    from django.core.management import call_command

    make_player()
    call_command("audit_chips")
    assert "Chip audit clean" in capsys.readouterr().out


def test_a_failed_audit_says_so_in_the_operators_language(make_player):
    from django.core.management import CommandError, call_command
    from django.utils import translation

    player = make_player()
    LedgerAccount.objects.filter(user=player).update(balance=10_001)
    with pytest.raises(CommandError, match=r"^Chip audit FAILED with 2 problems\.$"):
        call_command("audit_chips")
    with (
        translation.override("es"),
        pytest.raises(CommandError, match=r"^La auditoría de fichas FALLÓ con 2 problemas\.$"),
    ):
        call_command("audit_chips")


def test_rule_7_4_play_money_only_every_chip_is_issued_by_the_house(make_player, make_table, assert_ledger_clean):
    """RULES 7.4: the rules are the same for any chips; this room has play money only, so
    chips enter only as house grants and reloads, and no movement pays anything out of the room
    (a closed account's chips go back to the house)."""
    assert {kind.value for kind in LedgerTransaction.Kind} == {
        "grant",
        "reload",
        "buy_in",
        "top_up",
        "cash_out",
        "adjustment",
        # Tournaments (RULES 8.1): between a bankroll, a prize pool and the house (the fee, and its refund).
        "tourney_buy_in",
        "tourney_fee",
        "tourney_refund",
        "prize",
        "closure",
    }
    player, table = make_player(), make_table()
    cashier.buy_in(user=player, table=table, amount=100, occupancy="seat-session:1", request_id="request-0012")
    cashier.cash_out(user=player, table=table, amount=100, occupancy="seat-session:1")
    house_entries = LedgerTransaction.objects.filter(entries__account=cashier.house_account())
    assert set(house_entries.values_list("kind", flat=True)) == {"grant"}
    assert assert_ledger_clean() == 10_000


def test_the_audit_finds_table_movements_that_name_no_occupancy_and_bankroll_chips_at_a_tournament_table(
    make_table, django_assert_max_num_queries
):
    """A movement with no occupancy ("table:" ones were made before occupancies were recorded),
    and a tournament table's escrow holding chips (RULES 8.1): both found."""
    from cashier.audit import run_audit

    LedgerTransaction.objects.create(kind="buy_in", idempotency_key="k1", fingerprint="f", reference="buy-in:1")
    LedgerTransaction.objects.create(kind="top_up", idempotency_key="k2", fingerprint="f", reference="user:3")
    LedgerTransaction.objects.create(kind="buy_in", idempotency_key="k3", fingerprint="f", reference="table:4")
    tournament_table = make_table(name="Final table", is_tournament=True)
    LedgerAccount.objects.create(kind=LedgerAccount.Kind.TABLE, table=tournament_table, balance=0)
    assert not any("tournament table" in problem for problem in run_audit().problems)
    LedgerAccount.objects.filter(table=tournament_table).update(balance=50)
    with django_assert_max_num_queries(20):
        problems = run_audit().problems
    assert "2 table movements name no seat occupancy" in problems
    assert "escrow of Final table: a tournament table holds bankroll chips" in problems


ISOLATION_SEEN: list[str] = []


def record_isolation() -> list[str]:
    """A chip audit (settings.CHIP_AUDITS) that notes the snapshot the audit reads in."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW transaction_isolation")
        ISOLATION_SEEN.append(cursor.fetchone()[0])
    return []


@pytest.mark.django_db(transaction=True)
def test_every_check_of_the_audit_reads_one_snapshot(settings, needs_postgresql):
    """On a room still playing, a hand that ends between two of the audit's queries must not
    read as chips lost: the whole audit is one REPEATABLE READ transaction."""
    from cashier.audit import run_audit

    settings.CHIP_AUDITS = [*settings.CHIP_AUDITS, "tests.cashier.test_ledger.record_isolation"]
    ISOLATION_SEEN.clear()
    assert run_audit().ok
    assert ISOLATION_SEEN == ["repeatable read"]
