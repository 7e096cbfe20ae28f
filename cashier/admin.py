from django.contrib import admin

from .models import LedgerAccount, LedgerEntry, LedgerTransaction


class ReadOnlyAdmin(admin.ModelAdmin):
    """Append-only records (the ledger, hands, timeouts): staff read them, nothing is edited by hand."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class EntryInline(admin.TabularInline):
    model = LedgerEntry
    fields = ("account", "amount")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
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
