"""Hand history pages and exports: parse the request, call one function, render."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest, HttpResponseNotFound
from django.shortcuts import render
from django.utils.translation import gettext

from .access import open_hand, own_complete_hands
from .detail import hand_page
from .listing import played_hands_page
from .phh import PhhUnavailable, phh_text
from .pokerstars import pokerstars_text, pokerstars_texts


@login_required
def hand_list(request):
    return render(request, "history/list.html", {"page": played_hands_page(request.user, request.GET.get("page"))})


@login_required
def hand_detail(request, hand_id: int):
    return render(request, "history/detail.html", {"page": hand_page(request.user, hand_id, request.GET.get("step"))})


@login_required
def export_pokerstars(request, hand_id: int):
    record = open_hand(request.user, hand_id, complete_only=True)
    return _download(pokerstars_text(record), f"hand-{hand_id}.txt")


@login_required
def export_pokerstars_range(request):
    try:
        first, last = int(request.GET["from"]), int(request.GET["to"])
    except (KeyError, ValueError):
        return HttpResponseBadRequest(
            gettext("Give the first and last hand numbers: ?from=<id>&to=<id>."),
            content_type="text/plain; charset=utf-8",
        )
    records = own_complete_hands(request.user, first, last)
    if not records:
        raise Http404(gettext("You have no complete hands in that range."))
    return _download(pokerstars_texts(records), f"hands-{first}-{last}.txt")


@login_required
def export_phh(request, hand_id: int):
    record = open_hand(request.user, hand_id, complete_only=True)
    try:
        text = phh_text(record)
    except PhhUnavailable as reason:
        return HttpResponseNotFound(str(reason), content_type="text/plain; charset=utf-8")
    return _download(text, f"hand-{hand_id}.phh")


def _download(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
