from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from . import rules
from .errors import TournamentError
from .models import BlindLevel, Entry, Result, Tournament
from .services.cancel import cancel


class BlindLevelInline(admin.TabularInline):
    """The blind schedule, edited inline (RULES 8.3, 8.4); a new tournament gets its variant's default."""

    model = BlindLevel
    extra = 0
    fields = ("number", "small", "big", "ante", "minutes")


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ("player", "state", "buy_in", "fee", "add_on", "bust_group")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


class ResultInline(admin.TabularInline):
    model = Result
    extra = 0
    can_delete = False
    fields = ("place", "player", "prize", "paid")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "variant", "state", "buy_in", "fee", "starts_at", "level")
    list_filter = ("state", "kind", "variant")
    readonly_fields = ("state", "level", "started_at", "finished_at", "payout_percentages", "hand_for_hand")
    inlines = [BlindLevelInline, EntryInline, ResultInline]
    actions = ["cancel_tournaments"]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        tournament = form.instance
        if not tournament.levels.exists():
            BlindLevel.objects.bulk_create(
                BlindLevel(tournament=tournament, number=number, small=level.small, big=level.big, ante=level.ante,
                           minutes=level.minutes)
                for number, level in enumerate(rules.default_schedule(tournament.variant), start=1)
            )  # fmt: skip

    @admin.action(description=_("Cancel (RULES 8.12: refunds before the start, the pool shared by chips after)"))
    def cancel_tournaments(self, request, queryset):
        for tournament in queryset:
            try:
                cancel(tournament_id=tournament.pk)
            except TournamentError as error:
                self.message_user(request, f"{tournament}: {error}", messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: cancelled", messages.SUCCESS)
