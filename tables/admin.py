from django.contrib import admin

from .models import Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "variant", "stakes_label", "seat_count", "min_buy_in", "max_buy_in", "is_active")
    list_filter = ("variant", "is_active")
    search_fields = ("name",)
    fieldsets = (
        (None, {"fields": ("name", "variant", "is_active")}),
        ("Stakes", {"fields": ("stake_small", "stake_big", "small_blind_override")}),
        ("Seats and buy-in", {"fields": ("seat_count", "min_buy_in", "max_buy_in")}),
        ("Clock (RULES 6)", {"fields": ("action_seconds", "countdown_seconds", "reconnect_grace_seconds")}),
    )
