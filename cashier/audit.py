"""The chip audit: the ledger must balance, and every app's chips must match it.

`run_audit()` runs the ledger checks here plus every check named in
settings.CHIP_AUDITS (dotted paths to functions returning a list of
problems), so the tables app adds "escrow = stacks + chips in the hand"
without the cashier knowing about tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Sum
from django.utils.module_loading import import_string

from .models import LedgerAccount, LedgerEntry, LedgerTransaction


@dataclass
class AuditReport:
    problems: list[str] = field(default_factory=list)
    accounts_checked: int = 0
    chips_issued: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def ledger_problems() -> tuple[list[str], int, int]:
    problems: list[str] = []
    entry_sums = dict(
        LedgerEntry.objects.values("account").annotate(total=Sum("amount")).values_list("account", "total")
    )
    accounts = list(LedgerAccount.objects.all())
    for account in accounts:
        expected = entry_sums.get(account.pk, 0)
        if account.balance != expected:
            problems.append(f"{account}: balance {account.balance} but entries sum to {expected}")
    total = sum(a.balance for a in accounts)
    if total != 0:
        problems.append(f"account balances sum to {total}, not 0")
    unbalanced = (
        LedgerTransaction.objects.annotate(total=Sum("entries__amount")).exclude(total=0).values_list("pk", flat=True)
    )
    problems.extend(f"transaction #{pk} does not sum to zero" for pk in unbalanced)
    issued = -sum(a.balance for a in accounts if a.kind == LedgerAccount.Kind.HOUSE)
    return problems, len(accounts), issued


def run_audit() -> AuditReport:
    problems, checked, issued = ledger_problems()
    report = AuditReport(problems=problems, accounts_checked=checked, chips_issued=issued)
    for path in getattr(settings, "CHIP_AUDITS", []):
        report.problems.extend(import_string(path)())
    return report
