"""Hand history pages and exports: parse the request, call one function, render."""

import json
from collections.abc import AsyncIterator, Callable, Iterable, Iterator

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, HttpResponseBadRequest, HttpResponseNotFound, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext

from accounts.http import AuthenticatedHttpRequest

from .access import open_hand, own_complete_hands
from .detail import hand_page
from .download_limits import DownloadRefused, released_at_the_end, start_download
from .fairness import hand_proof
from .history_files import phh_files, pokerstars_history
from .listing import played_hands_page
from .phh import PhhUnavailable, phh_text
from .pokerstars import pokerstars_text, pokerstars_texts


@login_required
def hand_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "history/list.html", {"page": played_hands_page(request.user, request.GET.get("page"))})


@login_required
def hand_detail(request: AuthenticatedHttpRequest, hand_id: int) -> HttpResponse:
    return render(request, "history/detail.html", {"page": hand_page(request.user, hand_id, request.GET.get("step"))})


@login_required
def export_pokerstars(request: AuthenticatedHttpRequest, hand_id: int) -> HttpResponse:
    record = open_hand(request.user, hand_id, complete_only=True)
    return _download(pokerstars_text(record), f"hand-{hand_id}.txt")


@login_required
def export_pokerstars_range(request: AuthenticatedHttpRequest) -> HttpResponse:
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
def export_phh(request: AuthenticatedHttpRequest, hand_id: int) -> HttpResponse:
    record = open_hand(request.user, hand_id, complete_only=True)
    try:
        text = phh_text(record)
    except PhhUnavailable as reason:
        return HttpResponseNotFound(str(reason), content_type="text/plain; charset=utf-8")
    return _download(text, f"hand-{hand_id}.phh")


@login_required
def export_history(request: AuthenticatedHttpRequest) -> HttpResponseBase:
    """Every complete hand the player played, as one PokerStars file, written as it streams."""
    return _streamed(
        request,
        lambda: (piece.encode() for piece in pokerstars_history(request.user)),
        "text/plain; charset=utf-8",
        "hand-history.txt",
    )


@login_required
def export_history_phh(request: AuthenticatedHttpRequest) -> HttpResponseBase:
    """Every complete Pot Limit hand the player played, one PHH file each, in a zip written as it streams."""
    return _streamed(request, lambda: phh_files(request.user), "application/zip", "hand-history-phh.zip")


def _streamed(
    request: AuthenticatedHttpRequest, make_pieces: Callable[[], Iterable[bytes]], content_type: str, filename: str
) -> HttpResponseBase:
    """One whole-history download at a time per player, a few an hour (``download_limits``)."""
    try:
        key = start_download(request.user.pk)
    except DownloadRefused as refusal:
        return HttpResponse(str(refusal), status=429, content_type="text/plain; charset=utf-8")
    try:
        pieces = released_at_the_end(make_pieces(), key)
    except BaseException:
        cache.delete(key)
        raise
    content: Iterator[bytes] | AsyncIterator[bytes] = (
        _each_in_turn(pieces) if isinstance(request, ASGIRequest) else pieces
    )
    response = StreamingHttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


async def _each_in_turn(pieces: Iterable[bytes]) -> AsyncIterator[bytes]:
    """Under ASGI (daphne) Django reads a synchronous iterator whole before it sends a byte; this
    hands over each piece as it is made, the database reads staying on the request's thread."""
    take = sync_to_async(_next_or_none, thread_sensitive=True)
    each = iter(pieces)
    while (piece := await take(each)) is not None:
        yield piece


def _next_or_none(pieces: Iterator[bytes]) -> bytes | None:
    return next(pieces, None)


@login_required
def export_proof(request: AuthenticatedHttpRequest, hand_id: int) -> HttpResponse:
    """The viewer's fairness proof of a complete hand, as JSON (``verify_hand.py`` reads it)."""
    record = open_hand(request.user, hand_id, complete_only=True)
    proof = hand_proof(record, request.user, timezone.now())
    if proof is None:
        return HttpResponseNotFound("This hand was dealt before per-card commitments.", content_type="text/plain")
    text = json.dumps(proof.as_json(), indent=2) + "\n"
    return _download(text, f"hand-{hand_id}-proof.json", "application/json")


def _download(text: str, filename: str, content_type: str = "text/plain; charset=utf-8") -> HttpResponse:
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
