from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from .models import LedgerAccount, LedgerEntry, LedgerTransaction

if TYPE_CHECKING:  # generic for mypy only: Django's admin classes take no type arguments at run time
    _ModelAdmin = admin.ModelAdmin[Model]
    _TabularInline = admin.TabularInline[LedgerEntry, LedgerTransaction]
else:
    _ModelAdmin = admin.ModelAdmin
    _TabularInline = admin.TabularInline


class ReadOnlyAdmin(_ModelAdmin):
    """Append-only records (the ledger, hands, timeouts): staff read them, nothing is edited by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class EntryInline(_TabularInline):
    model = LedgerEntry
    fields = ("account", "amount")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: LedgerTransaction | None = None) -> bool:
        return False


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_at", "kind", "memo", "created_by", "idempotency_key")
    list_filter = ("kind",)
    search_fields = ("idempotency_key", "memo", "entries__account__user__username")
    inlines = [EntryInline]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "transaction", "account", "amount")
    list_select_related = ("transaction", "account__user", "account__table")
    search_fields = ("account__user__username",)


@admin.register(LedgerAccount)
class LedgerAccountAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "user", "table", "balance")
    list_filter = ("kind",)
    search_fields = ("user__username", "table__name")
