"""The chip audit: the ledger must balance, and every app's chips must match it.

`run_audit()` runs the ledger checks here plus every check named in
settings.CHIP_AUDITS (dotted paths to functions returning a list of
problems), so the tables app adds "escrow = stacks + chips in the hand"
without the cashier knowing about tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce
from django.utils.module_loading import import_string

from .models import LedgerAccount, LedgerTransaction


@dataclass
class AuditReport:
    problems: list[str] = field(default_factory=list)
    accounts_checked: int = 0
    chips_issued: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def ledger_problems() -> tuple[list[str], int, int]:
    """The ledger's own checks, each one query whose answer is only what is wrong: every
    account's balance is the sum of its entries, the balances sum to zero, every transaction
    sums to zero. Returns (problems, accounts checked, chips issued by the house)."""
    problems: list[str] = []
    mismatched = (
        LedgerAccount.objects.annotate(total=Coalesce(Sum("entries__amount"), 0))
        .filter(~Q(balance=F("total")))
        .select_related("user", "table", "tournament")
    )
    problems.extend(
        f"{account}: balance {account.balance} but entries sum to {account.total}" for account in mismatched
    )
    totals = LedgerAccount.objects.aggregate(
        accounts=Count("pk"),
        total=Coalesce(Sum("balance"), 0),
        house=Coalesce(Sum("balance", filter=Q(kind=LedgerAccount.Kind.HOUSE)), 0),
    )
    if totals["total"] != 0:
        problems.append(f"account balances sum to {totals['total']}, not 0")
    unbalanced = (
        LedgerTransaction.objects.annotate(total=Sum("entries__amount")).exclude(total=0).values_list("pk", flat=True)
    )
    problems.extend(f"transaction #{pk} does not sum to zero" for pk in unbalanced)
    return problems, totals["accounts"], -totals["house"]


def run_audit() -> AuditReport:
    problems, checked, issued = ledger_problems()
    report = AuditReport(problems=problems, accounts_checked=checked, chips_issued=issued)
    for path in getattr(settings, "CHIP_AUDITS", []):
        report.problems.extend(import_string(path)())
    return report
