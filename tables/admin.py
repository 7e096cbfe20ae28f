from django import forms
from django.contrib import admin, messages
from django.db.models import Count

from cashier.admin import ReadOnlyAdmin

from . import services
from .engine.events import EventType
from .models import ClockPolicy, Hand, HandEvent, HandPlayer, Installation, Seat, Table, TimeoutRecord
from .selectors.allowance import forget_allowance_limit
from .services.errors import refusal_text
from .services.table_settings import check_table_edit, edit_table
from .tracker_stakes import tracker_stakes_problem


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("number", "player", "stack", "state", "pending_sit_out", "pending_top_up")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")


class TableForm(forms.ModelForm):
    """An edit of a played table is checked under the table's lock, which the admin's
    transaction holds until the edit is saved: no player sits down in between."""

    class Meta:
        model = Table
        fields = (
            "name",
            "variant",
            "stake_small",
            "stake_big",
            "small_blind_override",
            "seat_count",
            "min_buy_in",
            "max_buy_in",
            "action_seconds",
            "countdown_seconds",
            "reconnect_grace_seconds",
            "sit_out_minutes",
            "time_bank_initial_seconds",
            "time_bank_refill_seconds",
            "time_bank_refill_hands",
            "time_bank_cap_seconds",
        )

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk is not None and self.has_changed():
            try:
                check_table_edit(table_id=self.instance.pk, changed=self.changed_data)
            except services.TableError as refusal:
                raise forms.ValidationError(refusal_text(refusal)) from None
        return cleaned


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    form = TableForm
    list_display = (
        "name",
        "variant",
        "stakes_label",
        "seat_count",
        "seats_taken",
        "min_buy_in",
        "max_buy_in",
        "is_active",
        "closing",
    )
    list_filter = ("variant", "is_active")
    search_fields = ("name",)
    # Open or closed is changed by the actions only, which cash players out and update every
    # screen; a field to untick would strand their chips in the escrow.
    readonly_fields = ("is_active", "closing", "version", "next_hand_at")
    fieldsets = (
        (None, {"fields": ("name", "variant", "is_active", "closing")}),
        ("Stakes", {"fields": ("stake_small", "stake_big", "small_blind_override")}),
        ("Seats and buy-in", {"fields": ("seat_count", "min_buy_in", "max_buy_in")}),
        (
            "Clock (RULES 6, 7.6)",
            {"fields": ("action_seconds", "countdown_seconds", "reconnect_grace_seconds", "sit_out_minutes")},
        ),
        (
            "Time bank",
            {
                "fields": (
                    "time_bank_initial_seconds",
                    "time_bank_refill_seconds",
                    "time_bank_refill_hands",
                    "time_bank_cap_seconds",
                )
            },
        ),
        ("State", {"fields": ("version", "next_hand_at"), "classes": ("collapse",)}),
    )
    inlines = [SeatInline]
    actions = ["close_tables", "reopen_tables"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(seats_taken=Count("seats"))  # one query for the list

    def save_model(self, request, obj, form, change):
        if change:  # only what the form changed, under the table's lock (``table_settings``)
            edit_table(table_id=obj.pk, edited=obj, changed=form.changed_data)
        else:
            super().save_model(request, obj, form, change)
        if obj.variant == Table.Variant.LIMIT:
            blinds = obj.blinds
            problem = tracker_stakes_problem(
                small_bet=blinds.big_blind, big_bet=blinds.big_bet, small_blind=blinds.small_blind
            )
            if problem:  # a warning, not a refusal: the rules allow these stakes (RULES 2.4, 7.1)
                self.message_user(request, problem, messages.WARNING)

    @admin.display(description="Seats taken", ordering="seats_taken")
    def seats_taken(self, table):
        return table.seats_taken

    @admin.action(description="Close the selected tables (players are cashed out after the current hand)")
    def close_tables(self, request, queryset):
        for table in queryset:
            closed_now = services.close_table(table_id=table.pk)
            self.message_user(
                request,
                f"{table}: closed and players cashed out."
                if closed_now
                else f"{table}: will close and cash out when the current hand ends.",
                messages.SUCCESS,
            )

    @admin.action(description="Reopen the selected closed tables")
    def reopen_tables(self, request, queryset):
        for table in queryset:
            reopened = services.reopen_table(table_id=table.pk)
            self.message_user(
                request, f"{table}: open again." if reopened else f"{table}: was already open.", messages.SUCCESS
            )


class HandPlayerInline(ReadOnlyInline):
    model = HandPlayer
    fields = ("seat", "player", "starting_stack", "final_stack")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player", "hand__table")


class HandEventInline(ReadOnlyInline):
    model = HandEvent
    fields = ("sequence", "type", "event", "created_at")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("hand__table")  # each row's name and hand state

    @admin.display(description="Payload")
    def event(self, event):
        # Hole cards of a running hand are nobody's business but their owner's, staff included.
        if event.type == EventType.HOLE_CARDS_DEALT and event.hand.state == Hand.State.RUNNING:
            return {**event.payload, "cards": ["hidden until the hand is complete"]}
        return event.payload


HAND_SECRETS = ("deck", "server_seed", "contributions")


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    """Hands are their event log: read-only for everyone."""

    list_display = ("id", "table", "number", "state", "button", "sequence", "started_at", "ended_at")
    list_select_related = ("table",)
    list_filter = ("state", "table")
    # The deck, the server seed and the contributions stay secret while the hand runs, from staff
    # too; staff get the full reveal as soon as the hand is complete.
    readonly_fields = [f.name for f in Hand._meta.fields if f.name not in HAND_SECRETS] + ["full_reveal"]
    exclude = HAND_SECRETS
    inlines = [HandPlayerInline, HandEventInline]

    @admin.display(description="Full reveal (deck, server seed, contributions)")
    def full_reveal(self, hand):
        if hand.state != Hand.State.COMPLETE:
            return "secret until the hand is complete"
        return f"{hand.deck} · seed {hand.server_seed} · {hand.contributions}"


@admin.register(ClockPolicy)
class ClockPolicyAdmin(admin.ModelAdmin):
    """One row of room-wide clock settings."""

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        forget_allowance_limit()  # this process's screens at once; the others within seconds

    def has_add_permission(self, request):
        return not ClockPolicy.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(TimeoutRecord)
class TimeoutRecordAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "player", "hand", "became")
    list_select_related = ("player", "hand__table")
    list_filter = ("became",)
    search_fields = ("player__username",)


@admin.register(Installation)
class InstallationAdmin(ReadOnlyAdmin):
    """The number that makes exported hand numbers unique to this installation: drawn once, never edited."""

    list_display = ("number", "created_at")
