"""The staff tools in the admin: each one calls its service (``operations.staff``), which
checks, does and writes the audit log of staff actions, shown here read-only."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext

from cashier.admin import ReadOnlyAdmin
from tables.admin import HandAdmin
from tables.models import Hand
from tables.services.errors import refusal_text

from . import staff
from .models import DealerMessage, Maintenance, SeatedPlayer, StaffAction


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnlyAdmin):
    """The audit log: what staff did to the running room, by whom and when."""

    list_display = ("created_at", "staff", "kind", "table", "hand", "player", "detail")
    list_select_related = ("staff", "table", "hand__table", "player")
    list_filter = ("kind",)
    search_fields = ("staff__username", "player__username", "detail")


admin.site.unregister(Hand)


@admin.register(Hand)
class StaffHandAdmin(HandAdmin):
    actions = ["cancel_hands"]

    @admin.action(description="Cancel the selected running hands (every stack back to what it was at the deal)")
    def cancel_hands(self, request, queryset):
        for hand in queryset.filter(state=Hand.State.RUNNING):
            try:
                staff.cancel_hand(staff=request.user, hand_id=hand.pk, reason="from the admin")
                self.message_user(request, f"{hand}: cancelled.", messages.SUCCESS)
            except staff.StaffToolRefused as refusal:
                self.message_user(request, f"{hand}: {refusal}", messages.ERROR)


@admin.register(SeatedPlayer)
class SeatedPlayerAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "player", "stack", "state")
    list_select_related = ("table", "player")
    list_filter = ("table",)
    search_fields = ("player__username", "table__name")
    actions = ["stand_up"]

    @admin.action(description="Stand the selected players up and cash them out (after the running hand)")
    def stand_up(self, request, queryset):
        for seat in queryset:
            try:
                staff.stand_up(staff=request.user, table_id=seat.table_id, player_id=seat.player_id)
                self.message_user(request, f"{seat.player} at {seat.table}: standing up.", messages.SUCCESS)
            except staff.StaffToolRefused as refusal:
                self.message_user(request, f"{seat.player} at {seat.table}: {refusal}", messages.ERROR)


class DealerMessageForm(forms.ModelForm):
    class Meta:
        model = DealerMessage
        fields = ("table", "text")

    def clean(self):
        data = super().clean()
        try:
            data["text"], _ = staff.check_dealer_message(
                staff=self.staff, text=data.get("text", ""), table_id=getattr(data.get("table"), "pk", None)
            )
        except staff.StaffToolRefused as refusal:
            raise forms.ValidationError(refusal_text(refusal)) from None
        return data


@admin.register(DealerMessage)
class DealerMessageAdmin(admin.ModelAdmin):
    """Adding one sends it: the dealer says it at the table chosen, or at every open table."""

    form = DealerMessageForm
    list_display = ("created_at", "staff", "table", "text")
    list_select_related = ("staff", "table")

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        form.staff = request.user
        return form

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        sent = staff.send_dealer_message(staff=request.user, text=obj.text, table_id=obj.table_id)
        obj.pk, obj.staff, obj.created_at = sent.pk, sent.staff, sent.created_at


class MaintenanceForm(forms.ModelForm):
    class Meta:
        model = Maintenance
        fields = ("reopens_at",)

    def clean_reopens_at(self):
        reopens_at = self.cleaned_data["reopens_at"]
        if reopens_at <= timezone.now():
            raise forms.ValidationError(gettext("The room must reopen in the future."))
        if Maintenance.objects.filter(ended_at=None).exists():
            raise forms.ValidationError(gettext("The room is already in maintenance."))
        return reopens_at


@admin.register(Maintenance)
class MaintenanceAdmin(admin.ModelAdmin):
    """Adding one puts the room into maintenance (no new hands, running hands finish, the
    lobby says when it reopens); the action ends it."""

    form = MaintenanceForm
    list_display = ("started_at", "reopens_at", "ended_at", "started_by")
    actions = ["end_maintenance"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        started = staff.start_maintenance(staff=request.user, reopens_at=obj.reopens_at)
        obj.pk, obj.started_by, obj.started_at = started.pk, started.started_by, started.started_at

    @admin.action(description="End the maintenance: hands are dealt again")
    def end_maintenance(self, request, queryset):
        try:
            staff.end_maintenance(staff=request.user)
            self.message_user(request, "The room is open again.", messages.SUCCESS)
        except staff.StaffToolRefused as refusal:
            self.message_user(request, str(refusal), messages.ERROR)


def live_room(request):
    """The live room page: its socket (``operations.consumers``) keeps it current."""
    from django.template.response import TemplateResponse

    from .room import room_now

    context = {**admin.site.each_context(request), "title": "Live room", "room": room_now(timezone.now())}
    return TemplateResponse(request, "admin/operations/room.html", context)


_admin_urls = admin.site.get_urls


def _urls_with_the_live_room():
    from django.urls import path

    return [path("room/", admin.site.admin_view(live_room), name="live_room"), *_admin_urls()]


admin.site.get_urls = _urls_with_the_live_room  # type: ignore[method-assign]
