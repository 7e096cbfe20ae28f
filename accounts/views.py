from typing import Any

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from cashier import services as cashier
from cashier.errors import CashierError
from cashier.models import LedgerEntry
from cashier.selectors import bankroll_balance, reload_status
from config.numbers import chips

from .closing import DepartureRefused, close_account
from .emails import VerificationFailed, send_verification, set_email, verify
from .forms import (
    CloseAccountForm,
    EmailForm,
    ReloadForm,
    SignupForm,
    ThrottledPasswordChangeForm,
    ThrottledPasswordResetForm,
)
from .http import AuthenticatedHttpRequest
from .pages import too_many_attempts
from .personal_data import data_archive
from .request_ids import RequestIdRefused, new_request_id, request_nonce
from .services import register_player
from .throttles import (
    count_data_download,
    count_reset_request,
    count_signup,
    old_password_retry_after,
    reset_mail_allowed,
    reset_retry_after,
    signup_retry_after,
)


def signup(request: HttpRequest) -> HttpResponse:
    # Said before the form is filled in, and checked again when an account is about to be made.
    retry_after = signup_retry_after(request)
    if retry_after is not None:
        return too_many_attempts(request, "signup", retry_after)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        retry_after = count_signup(request)
        if retry_after is not None:
            return too_many_attempts(request, "signup", retry_after)
        user = register_player(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            email=form.cleaned_data.get("email") or "",
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if user.email:
            send_verification(request, user)
            messages.info(request, gettext("We sent a link to your e-mail address: follow it to verify the address."))
        granted = bankroll_balance(user)
        messages.success(
            request,
            ngettext(
                "Welcome! %(amount)s play chip is in your bankroll.",
                "Welcome! %(amount)s play chips are in your bankroll.",
                granted,
            )
            % {"amount": chips(granted)},
        )
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


RELOAD = "reload"  # the request ids' purpose


@login_required
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    entries = (
        LedgerEntry.objects.filter(account__user=request.user)
        .select_related("transaction", "account")
        .order_by("-id")[:20]
    )
    return render(
        request,
        "accounts/profile.html",
        {
            "bankroll": bankroll_balance(request.user),
            "entries": entries,
            "reload": reload_status(user=request.user),
            "reload_form": ReloadForm(initial={"request_id": new_request_id(request.user.pk, RELOAD)}),
            "email_form": EmailForm(initial={"email": request.user.email}),
        },
    )


@login_required
@require_POST
def reload_bankroll(request: AuthenticatedHttpRequest) -> HttpResponseRedirect:
    form = ReloadForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("That form has expired; please try again."))
        return redirect("profile")
    try:
        nonce = request_nonce(form.cleaned_data["request_id"], user_id=request.user.pk, purpose=RELOAD)
        reloaded = cashier.reload(user=request.user, request_id=nonce)
    except (RequestIdRefused, CashierError) as error:
        messages.error(request, str(error))
    else:
        if reloaded.replayed:
            messages.info(request, gettext("That reload was already made."))
        else:
            messages.success(
                request,
                ngettext("Reloaded %(amount)s chip.", "Reloaded %(amount)s chips.", reloaded.amount)
                % {"amount": chips(reloaded.amount)},
            )
    return redirect("profile")


class PasswordChangeView(auth_views.PasswordChangeView):
    """Past the failed-password limit (this address's log-ins, or this account's old
    passwords) the form checks no password and answers 429, as the log-in does."""

    form_class = ThrottledPasswordChangeForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        retry_after = old_password_retry_after(request)
        if retry_after is not None:
            return too_many_attempts(request, "password", retry_after)
        return super().post(request, *args, **kwargs)

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


@login_required
def download_data(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Everything the room holds about the player, as one zip (a few an hour)."""
    retry_after = count_data_download(request)
    if retry_after is not None:
        return too_many_attempts(request, "download", retry_after)
    response = HttpResponse(data_archive(request.user), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="omaha-room-data-{request.user.pk}.zip"'
    return response


@login_required
def close_my_account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Close the account after the password is typed again: seats cashed out, chips back to
    the house, the name replaced; then the player is logged out."""
    if request.method == "POST":
        retry_after = old_password_retry_after(request)
        if retry_after is not None:
            return too_many_attempts(request, "password", retry_after)
    form = CloseAccountForm(request.user, request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        try:
            close_account(user=request.user)
        except DepartureRefused as refusal:
            form.add_error(None, str(refusal))
        else:
            logout(request)
            messages.success(request, gettext("Your account is closed. Thank you for playing."))
            return redirect("lobby")
    return render(request, "accounts/close.html", {"form": form, "bankroll": bankroll_balance(request.user)})


@login_required
@require_POST
def change_email(request: AuthenticatedHttpRequest) -> HttpResponseRedirect:
    form = EmailForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(map(str, form.errors.get("email", []))))
    else:
        changed = set_email(request.user, form.cleaned_data["email"])
        if request.user.email and not request.user.email_verified and not reset_mail_allowed(request, request.user):
            messages.error(request, gettext("We sent several mails to this account recently: please try again later."))
        elif request.user.email and not request.user.email_verified:  # a new address, or the link again
            send_verification(request, request.user)
            messages.success(
                request,
                gettext("We sent a link to %(email)s: follow it to verify the address.")
                % {"email": request.user.email},
            )
        elif changed:
            messages.success(request, gettext("Your e-mail address is removed."))
    return redirect("profile")


def verify_email(request: HttpRequest, token: str) -> HttpResponseRedirect:
    try:
        verify(token)
    except VerificationFailed as failure:
        messages.error(request, str(failure))
    else:
        messages.success(request, gettext("Your e-mail address is verified."))
    return redirect("profile" if request.user.is_authenticated else "login")


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset view, limited per client address (429 past ``PASSWORD_RESET_RATE``,
    whatever the address typed); the per-account limit is silent (the form)."""

    form_class = ThrottledPasswordResetForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        retry_after = reset_retry_after(request)
        if retry_after is not None:
            return too_many_attempts(request, "reset", retry_after)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        retry_after = count_reset_request(self.request)
        if retry_after is not None:
            return too_many_attempts(self.request, "reset", retry_after)
        return super().form_valid(form)


@login_required
def header_chips(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The header's chips alone (cashier/context_processors.py), for a page that changed them
    without reloading (a buy-in, top-up or cash-out at a table)."""
    response = render(request, "cashier/header_chips.html")
    response["Cache-Control"] = "no-store"
    return response
