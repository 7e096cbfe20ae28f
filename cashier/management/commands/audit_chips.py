from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import ngettext

from cashier.audit import run_audit


class Command(BaseCommand):
    help = "Check that every chip is accounted for: ledger balances, zero-sum, table escrows."

    def handle(self, *args: Any, **options: Any) -> None:
        report = run_audit()
        if not report.ok:
            for problem in report.problems:
                self.stderr.write(problem)
            count = len(report.problems)
            raise CommandError(
                ngettext(
                    "Chip audit FAILED with %(count)d problem.", "Chip audit FAILED with %(count)d problems.", count
                )
                % {"count": count}
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"Chip audit clean: {report.accounts_checked} accounts, {report.chips_issued:,} chips issued."
            )
        )
