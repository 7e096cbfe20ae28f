"""HTML fragments pushed over the websockets; htmx swaps each one into the page by its id."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.html import format_html

from .lobby import LobbyRow
from .table_view import TableView

# The live parts of the table page, by element id. The page includes the same templates.
TABLE_FRAGMENTS = {
    "felt": "tables/_felt.html",
    "controls": "tables/_controls.html",
    "seat-panel": "tables/_seat_panel.html",
    "hand-log": "tables/_hand_log.html",
}


def table_fragments(view: TableView, request_id: str) -> dict[str, str]:
    context = {"view": view, "request_id": request_id}
    return {element_id: render_to_string(template, context) for element_id, template in TABLE_FRAGMENTS.items()}


def error_fragment(message: str = "") -> str:
    """The player's own error line; an empty message clears it."""
    return format_html('<div id="table-error" class="table-error" role="alert">{}</div>', message)


def lobby_rows_fragment(rows: list[LobbyRow]) -> str:
    return render_to_string("tables/_lobby_rows.html", {"rows": rows})


def lobby_row_fragment(row: LobbyRow) -> str:
    return render_to_string("tables/_lobby_row.html", {"row": row})
