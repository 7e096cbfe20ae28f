"""A double-entry chip ledger.

Every chip movement is one LedgerTransaction whose LedgerEntries sum to zero.
Accounts: one house account that issues play money (its balance is minus
everything issued), one bankroll per player, one escrow per table (the chips
in play there). Balances are cached on the account row for locking and the
non-negative constraint; `audit_chips` proves they equal the entries.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class LedgerAccount(models.Model):
    class Kind(models.TextChoices):
        HOUSE = "house", _("House (issues play money)")
        BANKROLL = "bankroll", _("Player bankroll")
        TABLE = "table", _("Table escrow")
        TOURNAMENT = "tournament", _("Tournament prize pool")

    kind = models.CharField(max_length=16, choices=Kind.choices)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="bankroll"
    )
    table = models.OneToOneField("tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="escrow")
    tournament = models.OneToOneField(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.PROTECT, related_name="prize_pool_account"
    )
    balance = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(kind="house") | Q(balance__gte=0), name="ledger_balance_never_negative"),
            models.CheckConstraint(
                condition=(
                    Q(kind="house", user__isnull=True, table__isnull=True, tournament__isnull=True)
                    | Q(kind="bankroll", user__isnull=False, table__isnull=True, tournament__isnull=True)
                    | Q(kind="table", user__isnull=True, table__isnull=False, tournament__isnull=True)
                    | Q(kind="tournament", user__isnull=True, table__isnull=True, tournament__isnull=False)
                ),
                name="ledger_account_owner_matches_kind_v2",
            ),
            models.UniqueConstraint(fields=["kind"], condition=Q(kind="house"), name="ledger_single_house"),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.BANKROLL:
            return f"bankroll of {self.user}"
        if self.kind == self.Kind.TABLE:
            return f"escrow of {self.table}"
        if self.kind == self.Kind.TOURNAMENT:
            return f"prize pool of {self.tournament}"
        return "house"


class LedgerTransaction(models.Model):
    class Kind(models.TextChoices):
        GRANT = "grant", _("Sign-up grant")
        RELOAD = "reload", _("Reload")
        BUY_IN = "buy_in", _("Buy-in")
        TOP_UP = "top_up", _("Top-up")
        CASH_OUT = "cash_out", _("Cash-out")
        ADJUSTMENT = "adjustment", _("Staff adjustment")
        TOURNEY_BUY_IN = "tourney_buy_in", _("Tournament buy-in")
        TOURNEY_FEE = "tourney_fee", _("Tournament entry fee")
        TOURNEY_REFUND = "tourney_refund", _("Tournament refund")
        PRIZE = "prize", _("Tournament prize")
        CLOSURE = "closure", _("Account closed")

    kind = models.CharField(max_length=16, choices=Kind.choices)
    # Built by the cashier from what the movement pays for (never taken from a client): a
    # retried request builds the same key and gets the same transaction back.
    idempotency_key = models.CharField(max_length=120, unique=True)
    # What the request asked for, so a reused key with other data is refused.
    fingerprint = models.CharField(max_length=64)
    reference = models.CharField(
        max_length=60,
        db_index=True,
        help_text=_("What the movement pays for: a seat occupancy (seat-session:17) or a player (user:5)."),
    )
    memo = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Who asked for it: the player (buy-in, top-up, reload, closure) or the staff member (adjustment)."),
    )
    # NULL, not "", for movements nobody asked for (grants, cash-outs): the unique constraint
    # below must let any number of them be.
    request_id = models.CharField(  # noqa: DJ001
        max_length=64, null=True, blank=True, help_text=_("The nonce of the server-made request id it answers.")
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            # A request pays for one movement: replayed for another seat, purpose or amount, it is refused.
            models.UniqueConstraint(fields=["created_by", "request_id"], name="one_movement_per_request"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()}"


class LedgerEntry(models.Model):
    transaction = models.ForeignKey(LedgerTransaction, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField(help_text=_("Positive credits the account, negative debits it."))

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "ledger entries"
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="ledger_entry_not_zero")]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.account}"
