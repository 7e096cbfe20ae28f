from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext

from cashier import services as cashier
from cashier.errors import CashierError
from cashier.models import LedgerAccount
from cashier.selectors import bankroll_balance

from .closing import DepartureRefused, ban_player
from .forms import IdempotentForm
from .http import AuthenticatedHttpRequest
from .models import User
from .request_ids import RequestIdRefused, new_request_id, request_nonce

if TYPE_CHECKING:  # generic for mypy only: Django's admin classes take no type arguments at run time
    from django_stubs_ext import WithAnnotations

    _UserAdmin = DjangoUserAdmin[User]
else:
    _UserAdmin = DjangoUserAdmin


class _Bankroll(TypedDict):
    """What ``UserAdmin.get_queryset`` adds to each player."""

    bankroll_chips: int | None


ADJUST = "adjust-bankroll"  # the request ids' purpose


class BankrollAdjustmentForm(IdempotentForm):
    amount = forms.IntegerField(help_text="Chips to add (positive) or remove (negative).")
    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 3}))

    def clean_amount(self) -> int:
        amount: int = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(gettext("The adjustment must not be zero."))
        return amount


@admin.register(User)
class UserAdmin(_UserAdmin):
    list_display = ("username", "email", "is_staff", "is_active", "chat_muted", "bankroll_chips", "date_joined")
    list_filter = (*DjangoUserAdmin.list_filter, "chat_muted")
    readonly_fields = ("bankroll_link", "banned_at", "ban_reason", "closed_at")
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        ("Play money", {"fields": ("bankroll_link",)}),
        ("Chat", {"fields": ("chat_muted",)}),
        ("Ban and closing", {"fields": ("banned_at", "ban_reason", "closed_at")}),
    )
    actions = ["adjust_bankroll", "mute_in_chat", "unmute_in_chat", "ban"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        balance = LedgerAccount.objects.filter(kind=LedgerAccount.Kind.BANKROLL, user=OuterRef("pk")).values("balance")
        return super().get_queryset(request).annotate(bankroll_chips=Subquery(balance[:1]))

    @admin.display(description="Bankroll", ordering="bankroll_chips")
    def bankroll_chips(self, obj: WithAnnotations[User, _Bankroll]) -> int | None:
        return obj.bankroll_chips

    @admin.display(description="Bankroll")
    def bankroll_link(self, obj: WithAnnotations[User, _Bankroll]) -> str:
        if not obj.pk:  # not saved yet (its type says an int)
            return "-"
        url = reverse("admin:accounts_user_adjust_bankroll", args=[obj.pk])
        return format_html('{} chips — <a href="{}">adjust…</a>', f"{obj.bankroll_chips or 0:,}", url)

    @admin.action(description="Adjust the bankroll of the selected player (with a reason)")
    def adjust_bankroll(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponseRedirect | None:
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one player to adjust.", messages.ERROR)
            return None
        return redirect("admin:accounts_user_adjust_bankroll", queryset.get().pk)

    @admin.action(description="Mute the selected players in chat, at every table")
    def mute_in_chat(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = queryset.update(chat_muted=True)
        self.message_user(request, f"{count} muted in chat.")

    @admin.action(description="Let the selected players write in chat again")
    def unmute_in_chat(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = queryset.update(chat_muted=False)
        self.message_user(request, f"{count} may write in chat again.")

    @admin.action(description="Ban the selected players (seats cashed out, sockets closed, log-in refused, chips kept)")
    def ban(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        banned = 0
        for player in queryset.order_by("pk"):
            try:
                ban_player(user=player, reason=f"Banned by {request.user} in the admin.")
            except DepartureRefused as refusal:
                self.message_user(request, f"{player}: {refusal}", messages.ERROR)
            else:
                banned += 1
                self.log_change(request, player, "Banned.")
        if banned:
            self.message_user(request, f"{banned} banned.")

    def get_urls(self) -> list[URLPattern]:
        extra = [
            path(
                "<int:user_id>/adjust-bankroll/",
                self.admin_site.admin_view(self.adjust_bankroll_view),
                name="accounts_user_adjust_bankroll",
            )
        ]
        return extra + super().get_urls()

    def adjust_bankroll_view(self, request: AuthenticatedHttpRequest, user_id: int) -> HttpResponse:
        if not self.has_change_permission(request):
            return redirect("admin:index")
        player = get_object_or_404(User, pk=user_id)
        form = BankrollAdjustmentForm(
            request.POST or None, initial={"request_id": new_request_id(request.user.pk, ADJUST)}
        )
        if request.method == "POST" and form.is_valid():
            try:
                cashier.adjust(
                    user=player,
                    amount=form.cleaned_data["amount"],
                    reason=form.cleaned_data["reason"],
                    staff=request.user,
                    request_id=request_nonce(form.cleaned_data["request_id"], user_id=request.user.pk, purpose=ADJUST),
                )
            except (RequestIdRefused, CashierError) as error:
                form.add_error(None, str(error))
            else:
                self.message_user(request, f"Adjusted {player}'s bankroll by {form.cleaned_data['amount']:+,}.")
                return redirect("admin:accounts_user_change", player.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Adjust the bankroll of {player}",
            "player": player,
            "bankroll": bankroll_balance(player),
            "form": form,
            "opts": self.model._meta,
        }
        return render(request, "admin/accounts/adjust_bankroll.html", context)
