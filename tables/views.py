"""The lobby and the table page. Play itself happens over the table's websocket (consumers.py)."""

import uuid

from django.http import Http404
from django.shortcuts import render

from .presentation.lobby import lobby_rows
from .presentation.table_view import build_table_view


def lobby(request):
    return render(request, "tables/lobby.html", {"rows": lobby_rows()})


def table_page(request, table_id: int):
    view = build_table_view(table_id, request.user)
    if view is None or not view.table.is_active:
        raise Http404("No such table.")
    # The socket's first message replaces the live parts; this render makes the page whole before it.
    return render(request, "tables/table.html", {"view": view, "request_id": uuid.uuid4()})
