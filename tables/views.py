"""The lobby and the table page. Play itself happens over the table's websocket (consumers.py)."""

import contextlib

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.request_ids import new_request_id
from tables import services

from .forms import seat_forms_purpose
from .presentation.chat import chat_panel_fragments
from .presentation.fragments import lobby_rows_fragment, page_fragments
from .presentation.screens import views_for
from .presentation.teaching import hand_example, pot_limit_example
from .selectors.chat import chat_view
from .selectors.lobby import lobby_rows
from .selectors.table_state import load_table_state


def lobby(request):
    return render(request, "tables/lobby.html", {"lobby_rows": lobby_rows_fragment(lobby_rows())})


def table_page(request, table_id: int):
    state = load_table_state(table_id)
    if state is None or not state.table.is_active:
        raise Http404("No such table.")
    view, me = views_for(state, request.user, timezone.now())
    # The socket's first message replaces the live parts; this render makes the page whole before it.
    user = request.user
    request_id = new_request_id(user.pk, seat_forms_purpose(table_id)) if user.is_authenticated else ""
    page = page_fragments(view, me, request_id)
    viewer_id = user.pk if user.is_authenticated else None
    chat_shown = chat_view(table_id, viewer_id)
    chat = chat_panel_fragments(chat_shown.lines, logged_in=viewer_id is not None, muted=chat_shown.muted_players)
    page.update({key.replace("-", "_"): mark_safe(html) for key, html in chat.items()})
    context = {"view": view, "page": page, "chat_max_chars": settings.CHAT_MAX_CHARS}
    return render(request, "tables/table.html", context)


@require_POST
def join_waiting_list(request, table_id: int):
    """From the lobby (htmx): join a full table's waiting list, then go to its page to wait."""
    table_url = reverse("table", args=[table_id])
    if not request.user.is_authenticated:
        return HttpResponseClientRedirect(f"{reverse('login')}?next={table_url}")
    with contextlib.suppress(services.TableError):  # already on it, or a seat is free: the table page says which
        services.join_waiting_list(user=request.user, table_id=table_id)
    return HttpResponseClientRedirect(table_url)


def how_to_play(request):
    """Omaha High as this room plays it, for players new to it (docs/rules.md in plain words)."""
    context = {
        "seed_example": hand_example("Kd 7h 7c 2s", "Kc Kh 7s 3d 9s"),  # RULES 5.2, the seed's own
        "no_flush": hand_example("Kh Qs Qd 3c", "Ah Jh 8h 4h 2c"),  # four hearts on the board, one in hand
        "pot_limit": pot_limit_example(),
    }
    return render(request, "help/how_to_play.html", context)
