"""The chip audit: the ledger must balance, and every app's chips must match it.

`run_audit()` runs the ledger checks here plus every check named in
settings.CHIP_AUDITS (dotted paths to functions returning a list of
problems), so the tables app adds "escrow = stacks + chips in the hand"
without the cashier knowing about tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connections, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Count, F, Model, Q, QuerySet, Sum
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


class AuditQuery:
    """One of the audit's queries, written with the ORM and compiled to SQL once per database:
    afterwards it is only run. The audit runs after every simulated step (the adversaries, the
    soak), and on a small room compiling a queryset costs several times what running it does
    (0.65 ms against 0.08 ms for the accounts' check below). Only for querysets whose values never
    change (kinds, states): they are part of what was compiled. The rows come as the database
    sends them, without Django's converters: the checks read ids, text and whole numbers (a sum
    may come back as a decimal, so they take ``int()`` of it)."""

    def __init__(self, build: Callable[[], QuerySet[Any]]) -> None:
        self._build = build
        self._model: type[Model] | None = None
        self._compiled: dict[tuple[str, str], tuple[str, tuple[Any, ...]]] = {}

    def _sql(self) -> tuple[BaseDatabaseWrapper, str, tuple[Any, ...]]:
        if self._model is None:
            self._model = self._build().model
        connection = connections[router.db_for_read(self._model)]
        key = (connection.alias, connection.vendor)
        if key not in self._compiled:
            self._compiled[key] = self._build().query.get_compiler(connection=connection).as_sql()
        return connection, *self._compiled[key]

    def rows(self) -> list[tuple[Any, ...]]:
        connection, sql, params = self._sql()
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows: list[tuple[Any, ...]] = cursor.fetchall()
            return rows

    def objects(self) -> list[Any]:
        """The model's rows as objects (a queryset of the model's own fields, Django's
        converters applied: a JSON field comes back parsed)."""
        _, sql, params = self._sql()
        assert self._model is not None
        return list(self._model._default_manager.raw(sql, params))


# Every account whose balance is not the sum of its entries.
_MISMATCHED_ACCOUNTS = AuditQuery(
    lambda: (
        LedgerAccount.objects.annotate(total=Coalesce(Sum("entries__amount"), 0))
        .filter(~Q(balance=F("total")))
        .values_list("pk", "total")
    )
)
# The accounts of each kind: how many, and their balances' sum.
_BALANCES_BY_KIND = AuditQuery(
    lambda: LedgerAccount.objects.values_list("kind").annotate(accounts=Count("pk"), total=Sum("balance")).order_by()
)
# Every transaction whose entries do not sum to zero.
_UNBALANCED_TRANSACTIONS = AuditQuery(
    lambda: LedgerTransaction.objects.annotate(total=Sum("entries__amount")).exclude(total=0).values_list("pk")
)


def ledger_problems() -> tuple[list[str], int, int]:
    """The ledger's own checks, each one query whose answer is only what is wrong (and a line
    per kind of account): every account's balance is the sum of its entries, the balances sum to
    zero, every transaction sums to zero. Returns (problems, accounts checked, chips issued by
    the house)."""
    problems: list[str] = []
    mismatched = dict(_MISMATCHED_ACCOUNTS.rows())
    if mismatched:
        accounts = LedgerAccount.objects.select_related("user", "table", "tournament").in_bulk(list(mismatched))
        problems.extend(
            f"{accounts[pk]}: balance {accounts[pk].balance} but entries sum to {int(total)}"
            for pk, total in sorted(mismatched.items())
        )
    kinds = {kind: (count, int(total or 0)) for kind, count, total in _BALANCES_BY_KIND.rows()}
    total = sum(balance for _, balance in kinds.values())
    if total != 0:
        problems.append(f"account balances sum to {total}, not 0")
    problems.extend(f"transaction #{pk} does not sum to zero" for (pk,) in _UNBALANCED_TRANSACTIONS.rows())
    accounts_checked = sum(count for count, _ in kinds.values())
    return problems, accounts_checked, -kinds.get(LedgerAccount.Kind.HOUSE, (0, 0))[1]


def run_audit() -> AuditReport:
    """Every check reads one snapshot of the database: on a room still playing, a hand that ends
    between two of the checks' queries must not read as chips lost (PostgreSQL: a REPEATABLE READ
    transaction; inside a transaction already begun, that transaction's reads)."""
    connection = connections[router.db_for_read(LedgerTransaction)]
    with transaction.atomic(using=connection.alias):
        if connection.vendor == "postgresql" and not connection.savepoint_ids:  # its first statement
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        problems, checked, issued = ledger_problems()
        report = AuditReport(problems=problems, accounts_checked=checked, chips_issued=issued)
        for path in getattr(settings, "CHIP_AUDITS", []):
            report.problems.extend(import_string(path)())
    return report
