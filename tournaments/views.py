"""The tournament screens: the lobby, a tournament's page (registration, structure, results)
and the facts a tournament table's page shows."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from accounts.request_ids import RequestIdRefused, new_request_id, request_nonce

from . import selectors
from .errors import TournamentError
from .models import BlindLevel, Tournament
from .realtime.marks import marks_of, with_marks
from .realtime.push import rows_fragment, start_alert
from .services import registration

PURPOSE = "tournament-registration"
START_ALERT = "tournament-start-alert"


def lobby(request):
    """The list; its socket (``tournaments.realtime``) keeps it live. The rows are the ones the
    socket pushes, the viewer's marks filled in the same way."""
    rows = with_marks(rows_fragment(), marks_of(request.user))
    if request.headers.get("HX-Request"):
        return HttpResponse(rows)
    return render(request, "tournaments/lobby.html", {"rows_html": mark_safe(rows)})


def detail(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    now = timezone.now()
    user = request.user
    context_row = next((row for row in selectors.lobby_rows(user, now) if row.tournament.pk == tournament.pk), None)
    context = {
        "tournament": tournament,
        "levels": BlindLevel.objects.filter(tournament=tournament).order_by("number"),
        "row": context_row,
        "results": selectors.results(tournament),
        "refusal": registration.registration_refusal(tournament, user) if user.is_authenticated else None,
        "request_id": new_request_id(user.pk, PURPOSE) if user.is_authenticated else "",
        "room_alert": _start_alert(request, tournament, context_row),
    }
    return render(request, "tournaments/detail.html", context)


def _start_alert(request, tournament: Tournament, row) -> str:
    """The start alert, once, on the page a registration that started the tournament returns to."""
    if request.session.get(START_ALERT) != tournament.pk or row is None or row.my_table_id is None:
        return ""
    del request.session[START_ALERT]
    return start_alert(tournament, reverse("table", args=[row.my_table_id]))


@login_required
@require_POST
def register(request, tournament_id: int):
    try:
        nonce = request_nonce(request.POST.get("request_id"), user_id=request.user.pk, purpose=PURPOSE)
        registration.register(user=request.user, tournament_id=tournament_id, request_id=nonce)
    except (TournamentError, RequestIdRefused) as error:
        messages.error(request, str(error))
    else:
        # The last seat of a sit & go filled: the tournament started in this request, before the
        # page it returns to opened its socket. That page shows the start alert itself.
        if selectors.marks_of(request.user).get(tournament_id, selectors.Mark(False)).table_id is not None:
            request.session[START_ALERT] = tournament_id
    return redirect("tournament", tournament_id=tournament_id)


@login_required
@require_POST
def add_on(request, tournament_id: int):
    try:
        nonce = request_nonce(request.POST.get("request_id"), user_id=request.user.pk, purpose=PURPOSE)
        registration.add_on(user=request.user, tournament_id=tournament_id, request_id=nonce)
    except (TournamentError, RequestIdRefused) as error:
        messages.error(request, str(error))
    return redirect("tournament", tournament_id=tournament_id)


@login_required
@require_POST
def unregister(request, tournament_id: int):
    try:
        registration.unregister(user=request.user, tournament_id=tournament_id)
    except TournamentError as error:
        messages.error(request, str(error))
    return redirect("tournament", tournament_id=tournament_id)


def table_info(request, table_id: int):
    """The tournament facts of a table's page, polled by it (htmx)."""
    facts = selectors.table_facts(table_id, request.user, timezone.now())
    if facts is None:
        raise Http404("No such tournament table.")
    return render(request, "tournaments/_table_info.html", {"facts": facts})
