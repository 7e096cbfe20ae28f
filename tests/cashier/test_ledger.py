"""The double-entry chip ledger: balanced, idempotent, never negative."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from cashier import services as cashier
from cashier.errors import IdempotencyConflict, InsufficientChips, InvalidAmount, ReloadNotAllowed
from cashier.models import LedgerAccount, LedgerTransaction


def test_signup_grant_issues_ten_thousand_from_the_house(make_player, assert_ledger_clean):
    player = make_player()
    assert cashier.bankroll_balance(player) == 10_000
    assert assert_ledger_clean() == 10_000
    grant = LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.GRANT)
    assert sorted(grant.entries.values_list("amount", flat=True)) == [-10_000, 10_000]


def test_buy_in_and_cash_out_move_chips_through_the_table_escrow(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    cashier.buy_in(user=player, table=table, amount=150, idempotency_key="b1")
    assert cashier.bankroll_balance(player) == 9_850
    assert cashier.table_account(table).balance == 150
    cashier.cash_out(user=player, table=table, amount=150, idempotency_key="c1")
    assert cashier.bankroll_balance(player) == 10_000
    assert cashier.table_account(table).balance == 0
    assert_ledger_clean()


def test_a_retried_buy_in_with_the_same_key_debits_once(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    first = cashier.buy_in(user=player, table=table, amount=100, idempotency_key="same")
    again = cashier.buy_in(user=player, table=table, amount=100, idempotency_key="same")
    assert first.pk == again.pk
    assert cashier.bankroll_balance(player) == 9_900
    assert_ledger_clean()


def test_a_reused_key_with_different_data_is_refused(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    cashier.buy_in(user=player, table=table, amount=100, idempotency_key="k")
    with pytest.raises(IdempotencyConflict, match="already used"):
        cashier.buy_in(user=player, table=table, amount=120, idempotency_key="k")
    assert cashier.bankroll_balance(player) == 9_900
    assert_ledger_clean()


def test_buy_in_above_the_bankroll_is_refused_and_changes_nothing(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    before = LedgerTransaction.objects.count()
    with pytest.raises(InsufficientChips, match="10,000 available, 10,001 needed"):
        cashier.buy_in(user=player, table=table, amount=10_001, idempotency_key="too-much")
    assert cashier.bankroll_balance(player) == 10_000
    assert LedgerTransaction.objects.count() == before
    assert_ledger_clean()


@pytest.mark.parametrize("amount", [0, -5, 12.5, "100", True, None])
def test_bad_amounts_are_refused_with_a_clear_message(amount, make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table()
    with pytest.raises(InvalidAmount, match="chips"):
        cashier.buy_in(user=player, table=table, amount=amount, idempotency_key=f"bad-{amount!r}")
    assert cashier.bankroll_balance(player) == 10_000
    assert not LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.BUY_IN).exists()
    assert_ledger_clean()


def test_the_database_itself_refuses_a_negative_bankroll(make_player):
    player = make_player()
    account = cashier.bankroll_account(player)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.filter(pk=account.pk).update(balance=-1)


def test_reload_needs_a_low_bankroll(make_player, assert_ledger_clean):
    player = make_player()
    with pytest.raises(ReloadNotAllowed, match="below 1,000"):
        cashier.reload(user=player, idempotency_key="r0")
    assert cashier.bankroll_balance(player) == 10_000
    assert_ledger_clean()


def test_reload_tops_up_to_the_grant_once_per_six_hours(make_player, make_table, assert_ledger_clean):
    player, table = make_player(), make_table(max_buy_in=10_000)
    cashier.buy_in(user=player, table=table, amount=9_500, idempotency_key="b")
    cashier.reload(user=player, idempotency_key="r1")
    assert cashier.bankroll_balance(player) == 10_000
    cashier.buy_in(user=player, table=table, amount=9_800, idempotency_key="b2")
    with pytest.raises(ReloadNotAllowed, match="again in"):
        cashier.reload(user=player, idempotency_key="r2", now=timezone.now() + timedelta(hours=5))
    assert cashier.bankroll_balance(player) == 200
    cashier.reload(user=player, idempotency_key="r3", now=timezone.now() + timedelta(hours=6, minutes=1))
    assert cashier.bankroll_balance(player) == 10_000
    assert_ledger_clean()


def test_staff_adjustment_needs_a_reason_and_is_recorded(make_player, django_user_model, assert_ledger_clean):
    player = make_player()
    staff = django_user_model.objects.create_user(username="staff", password="x", is_staff=True)
    with pytest.raises(InvalidAmount, match="reason"):
        cashier.adjust(user=player, amount=50, reason="  ", staff=staff, idempotency_key="a0")
    record = cashier.adjust(user=player, amount=-300, reason="chargeback test", staff=staff, idempotency_key="a1")
    assert record.memo == "chargeback test" and record.created_by == staff
    assert cashier.bankroll_balance(player) == 9_700
    with pytest.raises(InsufficientChips):
        cashier.adjust(user=player, amount=-9_701, reason="too much", staff=staff, idempotency_key="a2")
    assert_ledger_clean()


def test_the_audit_detects_a_tampered_balance(make_player):
    from cashier.audit import run_audit

    player = make_player()
    LedgerAccount.objects.filter(user=player).update(balance=10_001)
    report = run_audit()
    assert not report.ok
    assert any("entries sum to 10000" in p for p in report.problems)
    assert any("sum to 1, not 0" in p for p in report.problems)


def test_audit_chips_command_reports_clean(make_player, capsys):
    from django.core.management import call_command

    make_player()
    call_command("audit_chips")
    assert "Chip audit clean" in capsys.readouterr().out


def test_rule_7_4_play_money_only_every_chip_is_issued_by_the_house(make_player, make_table, assert_ledger_clean):
    """RULES 7.4: the rules are the same for any chips; this room has play money only, so
    chips enter only as house grants and reloads, and no movement pays anything out of the room."""
    assert {kind.value for kind in LedgerTransaction.Kind} == {
        "grant", "reload", "buy_in", "top_up", "cash_out", "adjustment"
    }
    player, table = make_player(), make_table()
    cashier.buy_in(user=player, table=table, amount=100, idempotency_key="b")
    cashier.cash_out(user=player, table=table, amount=100, idempotency_key="c")
    house_entries = LedgerTransaction.objects.filter(entries__account=cashier.house_account())
    assert set(house_entries.values_list("kind", flat=True)) == {"grant"}
    assert assert_ledger_clean() == 10_000
