"""HTML fragments pushed over the websockets; htmx swaps each one into the page by its id.

A screen is the public fragments (the same for everyone at the table) followed
by its viewer's own: the layout seen from their seat, their seat box and
"Dealt to you" line (which patch the public felt and log, so they must follow
them), their controls and seat forms.
"""

from __future__ import annotations

from functools import lru_cache

from django.template.loader import render_to_string
from django.utils.html import format_html

from .layout import seat_spots
from .lobby import LobbyRow
from .table_view import TableView
from .viewer_view import ViewerView

PUBLIC_FRAGMENTS = {"felt": "tables/_felt.html", "hand-log": "tables/_hand_log.html"}
# Viewer fragments that live inside a public one: sent again whenever it is.
PATCHES = {"felt": ("own-seat",), "hand-log": ("dealt-to-you",)}
# The seat forms' one-time request id belongs to each socket: it replaces this in "seat-panel".
REQUEST_ID_SLOT = "request-id-slot"


def public_fragments(view: TableView) -> dict[str, str]:
    context = {"view": view}
    return {element_id: render_to_string(template, context) for element_id, template in PUBLIC_FRAGMENTS.items()}


def viewer_fragments(view: TableView, me: ViewerView, request_id: str = REQUEST_ID_SLOT) -> dict[str, str]:
    context = {"view": view, "me": me, "request_id": request_id}
    fragments = {"felt-view": felt_view_style(view.table.seat_count, me.bottom_seat, me.can_sit_down)}
    if me.own_seat is not None:
        fragments["own-seat"] = render_to_string("tables/_seat.html", {**context, "seat": me.own_seat})
    if me.dealt_line is not None:
        fragments["dealt-to-you"] = render_to_string("tables/_dealt_line.html", {"line": me.dealt_line})
    fragments["controls"] = render_to_string("tables/_controls.html", context)
    fragments["seat-panel"] = render_to_string("tables/_seat_panel.html", context)
    return fragments


@lru_cache(maxsize=256)
def felt_view_style(seat_count: int, bottom_seat: int, can_sit_down: bool) -> str:
    """Where each seat, bet and dealer button goes as seen from ``bottom_seat``, as a style sheet."""
    context = {"spots": sorted(seat_spots(seat_count, bottom_seat).items()), "can_sit_down": can_sit_down}
    return render_to_string("tables/_felt_view.html", context)


def error_fragment(message: str = "") -> str:
    """The player's own error line; an empty message clears it."""
    return format_html('<div id="table-error" class="table-error" role="alert">{}</div>', message)


def lobby_rows_fragment(rows: list[LobbyRow]) -> str:
    return render_to_string("tables/_lobby_rows.html", {"rows": rows})


def lobby_row_fragment(row: LobbyRow) -> str:
    return render_to_string("tables/_lobby_row.html", {"row": row})
