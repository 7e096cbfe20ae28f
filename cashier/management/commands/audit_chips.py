from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cashier.audit import run_audit


class Command(BaseCommand):
    help = "Check that every chip is accounted for: ledger balances, zero-sum, table escrows."

    def handle(self, *args: Any, **options: Any) -> None:
        report = run_audit()
        if not report.ok:
            for problem in report.problems:
                self.stderr.write(problem)
            raise CommandError(f"Chip audit FAILED with {len(report.problems)} problem(s).")
        self.stdout.write(
            self.style.SUCCESS(
                f"Chip audit clean: {report.accounts_checked} accounts, {report.chips_issued:,} chips issued."
            )
        )
