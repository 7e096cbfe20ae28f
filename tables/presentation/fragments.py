"""HTML fragments pushed over the websockets; htmx swaps each one into the page by its id.

A screen is the public fragments (the same for everyone at the table) followed
by its viewer's own: the layout seen from their seat, their seat box and
"Dealt to you" line (which patch the public felt and log, so they must follow
them), their controls and seat forms. The templates are Jinja2
(``templates/fragments``): they are rendered on every change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache, partial
from typing import Protocol, cast

import jinja2
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from markupsafe import Markup, escape

from config.jinja2 import fragment_translations
from tables.selectors.lobby import LobbyRow

from .cards import CardView
from .layout import seat_spots
from .log_lines import LogLine
from .table_view import SeatView, TableView
from .view_models import (
    Memo,
    controls_model,
    dealt_model,
    hand_log_model,
    own_seat_model,
    reuse_or_render,
    seat_box_model,
    seat_panel_model,
)
from .viewer_view import ViewerView

PUBLIC_FRAGMENTS = {"felt": "tables/felt.html", "hand-log": "tables/hand_log.html"}
# Viewer fragments that live inside a public one: sent again whenever it is.
PATCHES = {"felt": ("own-seat",), "hand-log": ("dealt-to-you",)}
# The seat forms' one-time request id belongs to each socket: it replaces this in "seat-panel".
REQUEST_ID_SLOT = "request-id-slot"
WAITING_FOR_SLOT = "waiting-for-slot"
SEQUENCE_SLOT = "sequence-slot"


class _UiMacros(Protocol):
    """The macros of ``tables/ui.html`` that fragments render on their own (Jinja2 makes them)."""

    def card(self, card: CardView) -> Markup: ...
    def seat_box(self, seat: SeatView, view: TableView) -> Markup: ...
    def dealt_line(self, line: LogLine) -> Markup: ...
    def lobby_row(self, row: LobbyRow) -> Markup: ...
    def log_line(self, line: LogLine) -> Markup: ...


def public_fragments(view: TableView, memo: Memo | None = None) -> dict[str, str]:
    """``memo``: what was rendered last for this audience (``view_models``), reused where the
    view model is the same, and updated."""
    context = {"view": view, "me": None, "log_line_html": _log_line_html}
    felt_context = {**context, "seat_boxes": _seat_boxes(view, None, memo)}
    return {
        "felt": _render(PUBLIC_FRAGMENTS["felt"], felt_context),  # it carries the version: new every time
        "hand-log": reuse_or_render(
            memo, "hand-log", hand_log_model(view, None), lambda: _render(PUBLIC_FRAGMENTS["hand-log"], context)
        ),
    }


def _seat_boxes(view: TableView, me: ViewerView | None, memo: Memo | None) -> dict[int, Markup]:
    """Each seat's box on the felt (the viewer's own as they see it), each reused from
    ``memo`` while its view model is the same."""
    ui = _macros()
    own = me.own_seat if me is not None else None
    boxes = {}
    for seat in view.seats:
        shown = own if own is not None and own.number == seat.number else seat
        model = seat_box_model(view, shown)
        html = reuse_or_render(memo, f"seat-{seat.number}", model, partial(_seat_box_html, ui, shown, view))
        boxes[seat.number] = Markup(html)
    return boxes


# Each log line's HTML, kept while its line is: a running hand's log is the same line objects
# from one action to the next (``log_lines``), so only a new line is rendered. Keyed by the line
# (held in the entry, so its id is not reused while the entry lives) and the language.
_line_html: dict[tuple[int, str | None], tuple[LogLine, Markup]] = {}
LINES_KEPT = 20_000


def _log_line_html(line: LogLine) -> Markup:
    key = (id(line), get_language())
    found = _line_html.get(key)
    if found is not None and found[0] is line:
        return found[1]
    html = Markup(str(_macros().log_line(line)))
    if len(_line_html) >= LINES_KEPT:
        _line_html.clear()
    _line_html[key] = (line, html)
    return html


def _seat_box_html(ui: _UiMacros, seat: SeatView, view: TableView) -> str:
    return str(ui.seat_box(seat, view))


def viewer_fragments(
    view: TableView, me: ViewerView, request_id: str = REQUEST_ID_SLOT, memo: Memo | None = None
) -> dict[str, str]:
    """``memo``: as for ``public_fragments``, for this viewer in the active language."""
    with fragment_translations():
        return _viewer_fragments(view, me, request_id, memo)


def _viewer_fragments(view: TableView, me: ViewerView, request_id: str, memo: Memo | None) -> dict[str, str]:
    context = {"view": view, "me": me, "request_id": request_id}
    fragments = {"felt-view": felt_view_style(view.table.seat_count, me.bottom_seat, me.can_sit_down)}
    ui = _macros()
    own_seat, dealt_line = me.own_seat, me.dealt_line
    if own_seat is not None:
        fragments["own-seat"] = reuse_or_render(
            memo, "own-seat", own_seat_model(view, me), lambda: str(ui.seat_box(own_seat, view))
        )
    if dealt_line is not None:
        fragments["dealt-to-you"] = reuse_or_render(
            memo, "dealt-to-you", dealt_model(me), lambda: str(ui.dealt_line(dealt_line))
        )
    # Rendered with a slot for whom a waiting player waits (the turn moves on every action) and
    # one for the hand's sequence, filled in after: the rest of the controls change less often.
    model = controls_model(view, me)
    controls = reuse_or_render(memo, "controls", model, partial(_controls_html, context))
    if model.waiting_for:
        clock = view.clock
        assert clock is not None  # someone is to act: the clock runs
        controls = controls.replace(WAITING_FOR_SLOT, str(escape(clock.player)))
    if me.controls is not None:
        controls = controls.replace(SEQUENCE_SLOT, str(me.controls.sequence))
    fragments["controls"] = controls
    fragments["seat-panel"] = reuse_or_render(
        memo, "seat-panel", seat_panel_model(view, me, request_id), lambda: _render("tables/seat_panel.html", context)
    )
    return fragments


def _controls_html(context: dict[str, object]) -> str:
    return _render("tables/controls.html", {**context, "waiting_for": WAITING_FOR_SLOT, "sequence_slot": SEQUENCE_SLOT})


def page_fragments(view: TableView, me: ViewerView, request_id: str) -> dict[str, SafeString]:
    """The live parts of the table page as first served: the felt and log already hold the viewer's own."""
    context = {"view": view, "me": me}
    page = {element_id: _render(template, context) for element_id, template in PUBLIC_FRAGMENTS.items()}
    page.update(viewer_fragments(view, me, request_id))
    return {element_id.replace("-", "_"): mark_safe(html) for element_id, html in page.items()}


@lru_cache(maxsize=256)
def felt_view_style(seat_count: int, bottom_seat: int, can_sit_down: bool) -> str:
    """Where each seat, bet and dealer button goes as seen from ``bottom_seat``, as a style sheet."""
    context = {"spots": sorted(seat_spots(seat_count, bottom_seat).items()), "can_sit_down": can_sit_down}
    return _render("tables/felt_view.html", context)


def error_fragment(message: str = "") -> str:
    """The player's own error line; an empty message clears it."""
    return format_html('<div id="table-error" class="table-error" role="alert">{}</div>', message)


def lobby_rows_fragment(rows: list[LobbyRow]) -> SafeString:
    return mark_safe(_render("tables/lobby_rows.html", {"rows": rows}))


def lobby_row_fragment(row: LobbyRow) -> str:
    return str(_macros().lobby_row(row)).strip()


def card_row(cards: Iterable[CardView]) -> str:
    """Cards drawn as the table draws them (the ``card`` macro), for pages that show cards."""
    card = _macros().card
    return '<span class="card-row">' + "".join(str(card(c)) for c in cards) + "</span>"


def _macros() -> _UiMacros:
    """The pieces several fragments share (``tables/ui.html``), to render one on its own."""
    return cast(_UiMacros, _template("tables/ui.html").module)


def _template(name: str) -> jinja2.Template:
    backend = engines["fragments"]
    assert isinstance(backend, Jinja2)  # settings.TEMPLATES: the fragments are Jinja2's
    return backend.env.get_template(name)


def render_fragment(name: str, context: Mapping[str, object]) -> str:
    """One fragment template (``templates/fragments``) rendered on its own."""
    return _render(name, context)


def _render(name: str, context: Mapping[str, object]) -> str:
    with fragment_translations():
        return _template(name).render(context).strip()  # htmx swaps each top-level element
