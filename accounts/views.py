from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from cashier import services as cashier
from cashier.errors import CashierError
from cashier.models import LedgerEntry
from cashier.selectors import bankroll_balance, reload_status
from config.numbers import chips

from .forms import ReloadForm, SignupForm
from .pages import too_many_attempts
from .request_ids import RequestIdRefused, new_request_id, request_nonce
from .services import register_player
from .throttles import count_signup, signup_retry_after


def signup(request):
    # Said before the form is filled in, and checked again when an account is about to be made.
    retry_after = signup_retry_after(request)
    if retry_after is not None:
        return too_many_attempts(request, "signup", retry_after)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        retry_after = count_signup(request)
        if retry_after is not None:
            return too_many_attempts(request, "signup", retry_after)
        user = register_player(username=form.cleaned_data["username"], password=form.cleaned_data["password1"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
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
def profile(request):
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
        },
    )


@login_required
@require_POST
def reload_bankroll(request):
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


@login_required
def header_chips(request):
    """The header's chips alone (cashier/context_processors.py), for a page that changed them
    without reloading (a buy-in, top-up or cash-out at a table)."""
    response = render(request, "cashier/header_chips.html")
    response["Cache-Control"] = "no-store"
    return response
