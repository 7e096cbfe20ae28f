"""HTML fragments pushed over the websockets; htmx swaps each one into the page by its id.

A screen is the public fragments (the same for everyone at the table) followed
by its viewer's own: the layout seen from their seat, their seat box and
"Dealt to you" line (which patch the public felt and log, so they must follow
them), their controls and seat forms. The templates are Jinja2
(``templates/fragments``). A change's screens reuse what was rendered for the same view
model (``view_models``): the felt and the controls are put together from their pieces
(``felt_parts.html``, ``controls_parts.html``) as their templates put them together, so only
the pieces that changed are rendered again.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache, partial
from typing import Protocol, cast

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from markupsafe import Markup, escape

from config.jinja2 import fragment_translations
from config.speaking import language as active_language
from tables.selectors.lobby import LobbyRow

from .cards import CardView
from .layout import seat_spots
from .log_lines import LogLine
from .table_view import SeatView, TableView
from .templates import render_fragment
from .templates import template as _template
from .view_models import (
    ControlsBodyModel,
    Memo,
    Rendered,
    controls_body_model,
    controls_open_model,
    dealt_model,
    felt_board_model,
    felt_close_model,
    felt_pot_model,
    hand_log_model,
    reuse_or_render,
    seat_body_model,
    seat_clock_model,
    seat_extras_model,
    seat_head_model,
    seat_panel_model,
    seat_summary_model,
    top_up_model,
)
from .viewer_view import ViewerView

_render = render_fragment  # the fragments' own renders, under one name (a test counts them)

PUBLIC_FRAGMENTS = {"felt": "tables/felt.html", "hand-log": "tables/hand_log.html"}
# Viewer fragments that live inside a public one: sent again whenever it is.
PATCHES = {"felt": ("own-seat",), "hand-log": ("dealt-to-you",)}
# The seat forms' one-time request id belongs to each socket: it replaces this in "seat-panel".
REQUEST_ID_SLOT = "request-id-slot"
WAITING_FOR_SLOT = "waiting-for-slot"
SEQUENCE_SLOT = "sequence-slot"
VERSION_SLOT = "version-slot"
SUMMARY_SLOT = "seat-summary-slot"
TOP_UP_SLOT = "top-up-slot"
LEAVE_CONFIRM_SLOT = "leave-confirm-slot"
SEED_SLOT = "seed-commitment-slot"


class _UiMacros(Protocol):
    """The macros of ``tables/ui.html`` that fragments render on their own (Jinja2 makes them)."""

    def card(self, card: CardView) -> Markup: ...
    def seat_head(self, seat: SeatView) -> Markup: ...
    def seat_stack(self, seat: SeatView) -> Markup: ...
    def seat_body(self, seat: SeatView) -> Markup: ...
    def seat_clock(self, seat: SeatView, clock: object) -> Markup: ...
    def free_seat(self, seat: SeatView, seats_open: bool) -> Markup: ...
    def dealt_line(self, line: LogLine | None) -> Markup: ...
    def hand_log_open(self, view: TableView) -> Markup: ...
    def hand_log_close(self, view: TableView) -> Markup: ...
    def lobby_row(self, row: LobbyRow) -> Markup: ...
    def log_line(self, line: LogLine) -> Markup: ...


class _FeltMacros(Protocol):
    """The felt's pieces (``tables/felt_parts.html``)."""

    def felt_open(self, view: TableView, version: object) -> Markup: ...
    def felt_board(self, view: TableView) -> Markup: ...
    def felt_pot(self, view: TableView) -> Markup: ...
    def seat_extras(self, seat: SeatView, dead_button: bool) -> Markup: ...
    def felt_close(self, view: TableView) -> Markup: ...


class _SeatPanelMacros(Protocol):
    """The seat panel's pieces that move with the stack (``tables/seat_panel_parts.html``)."""

    def seat_summary(self, seat: object) -> Markup: ...
    def top_up_form(self, seat: object, me: ViewerView, view: TableView, request_id: str) -> Markup: ...
    def leave_confirm(self, in_running_hand: bool) -> Markup: ...


class _ControlsMacros(Protocol):
    """The controls' pieces (``tables/controls_parts.html``)."""

    def controls_open(self, view: TableView, me: ViewerView, sequence: object) -> Markup: ...
    def my_cards(self, cards: list[CardView]) -> Markup: ...
    def readout(self, readout: object) -> Markup: ...
    def controls_body(
        self, controls: object, can_show_cards: bool, waiting: bool, waiting_for: str, sequence: object
    ) -> Markup: ...


def public_fragments(view: TableView, memo: Memo | None = None) -> dict[str, str]:
    """``memo``: what was rendered last for this audience (``view_models``), reused where the
    view model is the same, and updated."""
    context = {"view": view, "me": None, "log_line_html": _log_line_html}
    if memo is None:
        return {
            "felt": _render(PUBLIC_FRAGMENTS["felt"], {**context, "seat_boxes": _seat_boxes(view, None, None)}),
            "hand-log": _render(PUBLIC_FRAGMENTS["hand-log"], context),
        }
    with fragment_translations():
        return {
            "felt": _felt(view, memo),
            "hand-log": reuse_or_render(memo, "hand-log", hand_log_model(view, None), partial(_hand_log, view, memo)),
        }


def _hand_log(view: TableView, memo: Memo) -> str:
    """The public hand log put together as ``hand_log.html`` puts it: its lines are kept
    (``_log_line_html``), only a new one is rendered, and the lines shown last are joined
    already: an action adds its own to them."""
    ui, language = _macros(), active_language()
    has_lines = bool(view.log)
    opening = reuse_or_render(memo, "log-open", (view.hand.number if view.hand else None, has_lines),
                              lambda: str(ui.hand_log_open(view)))  # fmt: skip
    closing = reuse_or_render(memo, "log-close", has_lines, lambda: str(ui.hand_log_close(view)))
    lines = tuple(view.log)
    kept = memo.get("log-lines", [])
    start, joined = 0, []
    if kept:
        shown = cast(tuple[LogLine, ...], kept[-1].model)
        if len(shown) <= len(lines) and lines[: len(shown)] == shown:
            start, joined = len(shown), [kept[-1].html] if shown else []
    joined += [
        reuse_or_render(memo, "dealt-slot", True, lambda: str(ui.dealt_line(None)))
        if line.kind == "dealt-slot"
        else _log_line_html(line, language)
        for line in lines[start:]
    ]
    body = "\n".join(joined)
    memo["log-lines"] = [Rendered(lines, body)]
    return (opening + body + closing).strip()


def _felt(view: TableView, memo: Memo) -> str:
    """The public felt put together from its pieces as ``felt.html`` puts them, each reused from
    ``memo`` while its view model is the same: the table's version goes into a slot."""
    parts = cast(_FeltMacros, _template("tables/felt_parts.html").module)
    seat_count = view.table.seat_count
    opening = reuse_or_render(memo, "felt-open", seat_count, lambda: str(parts.felt_open(view, VERSION_SLOT)))
    html = [opening.replace(VERSION_SLOT, str(view.version), 1)]
    html.append(reuse_or_render(memo, "felt-board", felt_board_model(view), lambda: str(parts.felt_board(view))))
    html.append(reuse_or_render(memo, "felt-pot", felt_pot_model(view), lambda: str(parts.felt_pot(view))))
    boxes = _seat_boxes(view, None, memo)
    for seat in view.seats:
        html.append(boxes[seat.number])
        model = seat_extras_model(view, seat)
        if model.bet or model.is_button:
            html.append(
                reuse_or_render(
                    memo, f"extras-{seat.number}", model, partial(_seat_extras_html, parts, seat, model.dead_button)
                )
            )
    html.append(reuse_or_render(memo, "felt-close", felt_close_model(view), lambda: str(parts.felt_close(view))))
    return "".join(html).strip()


def _seat_extras_html(parts: _FeltMacros, seat: SeatView, dead_button: bool) -> str:
    return str(parts.seat_extras(seat, dead_button))


def _seat_boxes(view: TableView, me: ViewerView | None, memo: Memo | None) -> dict[int, Markup]:
    """Each seat's box on the felt (the viewer's own as they see it)."""
    own = me.own_seat if me is not None else None
    boxes = {}
    for seat in view.seats:
        shown = own if own is not None and own.number == seat.number else seat
        boxes[seat.number] = Markup(_seat_box(view, shown, memo, f"seat-{seat.number}"))
    return boxes


def _seat_box(view: TableView, seat: SeatView, memo: Memo | None, key: str) -> str:
    """A seat's box put together from its pieces as the ``seat_box`` macro puts them, each
    reused from ``memo`` while its view model is the same: an action renders again the stack it
    moved and the heads and clocks of the seats whose turn it ended and began."""
    if seat.player is None:
        seats_open = view.seats_open
        return reuse_or_render(
            memo, key, (seat.number, seats_open), partial(_seat_piece, "free_seat", seat, seats_open)
        )
    head, body, ticking = seat_head_model(seat), seat_body_model(seat), seat_clock_model(view, seat)
    # The whole box while none of its pieces moved (most seats on most actions): the same string,
    # the four pieces not even looked up. The viewer's own box is a fragment of its own, whose
    # digest is then found again, not worked out (``deltas.digest``).
    return reuse_or_render(
        memo,
        f"{key}*",
        (head, seat.stack, body, ticking),
        partial(_seat_pieces, view, seat, memo, key, head, body, ticking),
    )


def _seat_pieces(
    view: TableView, seat: SeatView, memo: Memo | None, key: str, head: object, body: object, ticking: object
) -> str:
    return (
        reuse_or_render(memo, f"{key}-head", head, partial(_seat_piece, "seat_head", seat))
        + reuse_or_render(memo, f"{key}-stack", seat.stack, partial(_seat_piece, "seat_stack", seat))
        + reuse_or_render(memo, f"{key}-body", body, partial(_seat_piece, "seat_body", seat))
        + reuse_or_render(memo, f"{key}-clock", ticking, partial(_seat_piece, "seat_clock", seat, view.clock))
        + "</div>"
    )


def _seat_piece(piece: str, *args: object) -> str:
    """One piece of a seat box (a macro of ``tables/ui.html``) rendered."""
    return str(getattr(_macros(), piece)(*args))


# Each log line's HTML, kept while its line is: a running hand's log is the same line objects
# from one action to the next (``log_lines``), so only a new line is rendered. Keyed by the line
# (held in the entry, so its id is not reused while the entry lives) and the language.
_line_html: dict[tuple[int, str | None], tuple[LogLine, Markup]] = {}
LINES_KEPT = 20_000


def _log_line_html(line: LogLine, language: str | None = None) -> Markup:
    key = (id(line), language or active_language())
    found = _line_html.get(key)
    if found is not None and found[0] is line:
        return found[1]
    html = Markup(str(_macros().log_line(line)))
    if len(_line_html) >= LINES_KEPT:
        _line_html.clear()
    _line_html[key] = (line, html)
    return html


def viewer_fragments(
    view: TableView,
    me: ViewerView,
    request_id: str = REQUEST_ID_SLOT,
    memo: Memo | None = None,
    fill_waiting: bool = True,
) -> dict[str, str]:
    """``memo``: as for ``public_fragments``, for this viewer in the active language;
    ``fill_waiting``: False leaves whom a waiting player waits for in its slot."""
    with fragment_translations():
        fragments = _viewer_fragments(view, me, request_id, memo)
    if fill_waiting:
        fragments["controls"] = fill_waiting_for(fragments["controls"], view, memo)
    return fragments


def fill_waiting_for(controls: str, view: TableView, memo: Memo | None = None) -> str:
    """The controls saying whom their player waits for, the player whose turn it is (``memo``:
    the same string again for the same controls and name, its digest found again)."""
    name = view.clock.player if view.clock is not None and WAITING_FOR_SLOT in controls else None
    fill = lambda: controls.replace(WAITING_FOR_SLOT, str(escape(name)))  # noqa: E731
    return controls if name is None else reuse_or_render(memo, "controls-waiting", (controls, name), fill)


def _viewer_fragments(view: TableView, me: ViewerView, request_id: str, memo: Memo | None) -> dict[str, str]:
    context = {"view": view, "me": me, "request_id": request_id}
    fragments = {"felt-view": felt_view_style(view.table.seat_count, me.bottom_seat, me.can_sit_down)}
    ui = _macros()
    own_seat, dealt_line = me.own_seat, me.dealt_line
    if own_seat is not None:
        fragments["own-seat"] = _seat_box(view, own_seat, memo, "own-seat")
    if dealt_line is not None:
        fragments["dealt-to-you"] = reuse_or_render(
            memo, "dealt-to-you", dealt_model(me), lambda: str(ui.dealt_line(dealt_line))
        )
    fragments["controls"] = _render("tables/controls.html", context) if memo is None else _controls(view, me, memo)
    fragments["seat-panel"] = _seat_panel(view, me, request_id, memo, context)
    return fragments


def _seat_panel(view: TableView, me: ViewerView, request_id: str, memo: Memo | None, context: dict[str, object]) -> str:
    """The seat panel; a seated viewer's from the panel kept with slots for its pieces that move
    with the stack (its summary line and the form to add chips) or the hand (what leaving asks
    to confirm, the commitment to the next hand's seed), each rendered on its own."""
    seat = me.seat
    if memo is None or seat is None:
        model = seat_panel_model(view, me, request_id)
        return reuse_or_render(memo, "seat-panel", model, lambda: _render("tables/seat_panel.html", context))
    slots = {"summary": SUMMARY_SLOT, "top_up": TOP_UP_SLOT, "leave_confirm": LEAVE_CONFIRM_SLOT, "seed": SEED_SLOT}
    slotted = {**context, "slots": slots}
    panel = reuse_or_render(
        memo, "seat-panel", seat_panel_model(view, me, request_id), lambda: _render("tables/seat_panel.html", slotted)
    )
    parts = cast(_SeatPanelMacros, _template("tables/seat_panel_parts.html").module)
    summary = reuse_or_render(memo, "seat-summary", seat_summary_model(seat), lambda: str(parts.seat_summary(seat)))
    top_up = reuse_or_render(
        memo,
        "top-up",
        top_up_model(view, me, seat, request_id),
        lambda: str(parts.top_up_form(seat, me, view, request_id)),
    )
    in_hand = me.in_running_hand
    confirm = reuse_or_render(memo, "leave-confirm", in_hand, lambda: str(parts.leave_confirm(in_hand)))
    seed = str(escape(view.table.next_seed_commitment))  # each hand's, in its form's two places
    pieces = (panel, summary, top_up, confirm, seed)  # the same string while they are (as the controls)
    return reuse_or_render(memo, "seat-panel+", pieces, partial(_fill_panel, *pieces))


def _fill_panel(panel: str, summary: str, top_up: str, confirm: str, seed: str) -> str:
    html = panel.replace(SUMMARY_SLOT, summary, 1).replace(TOP_UP_SLOT, top_up, 1)
    return html.replace(LEAVE_CONFIRM_SLOT, confirm, 1).replace(SEED_SLOT, seed, 2)


def _controls(view: TableView, me: ViewerView, memo: Memo) -> str:
    """The controls put together from their pieces as ``controls.html`` puts them, each reused
    from ``memo`` while its view model is the same: a new street renders again the cards and
    the readout, not the buttons. Rendered with a slot for the hand's sequence and one for whom
    a waiting player waits (the turn moves on every action), filled in after (the latter by
    ``viewer_fragments``: the same string while the pieces are, whoever is to act)."""
    parts = cast(_ControlsMacros, _template("tables/controls_parts.html").module)
    opening = reuse_or_render(
        memo, "controls-open", controls_open_model(view, me), lambda: str(parts.controls_open(view, me, SEQUENCE_SLOT))
    )
    body_model = controls_body_model(view, me)
    body = reuse_or_render(memo, "controls-body", body_model, partial(_controls_body_html, parts, body_model))
    if me.controls is not None:
        sequence = str(me.controls.sequence)
        opening, body = opening.replace(SEQUENCE_SLOT, sequence), body.replace(SEQUENCE_SLOT, sequence)
    cards = tuple(me.my_cards)
    my_cards = reuse_or_render(memo, "my-cards", cards, lambda: str(parts.my_cards(me.my_cards))) if cards else ""
    readout = me.readout
    said = reuse_or_render(memo, "readout", readout, lambda: str(parts.readout(readout))) if readout else ""
    # The same string while its pieces are: the digest worked out when it was sent is found again.
    pieces = (opening, my_cards, said, body)
    return reuse_or_render(memo, "controls+", pieces, lambda: ("".join(pieces) + "\n</div>").strip())


def _controls_body_html(parts: _ControlsMacros, model: ControlsBodyModel) -> str:
    return str(
        parts.controls_body(model.controls, model.can_show_cards, model.waiting, WAITING_FOR_SLOT, SEQUENCE_SLOT)
    )


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


def busy_fragment(message: str, retry_after: int) -> str:
    """The error line of a socket refused for being busy, with the seconds the server asks the
    page to wait at least before it tries again (``static/js/connection.js``)."""
    return format_html(
        '<div id="table-error" class="table-error" role="alert" data-retry-after="{}">{}</div>', retry_after, message
    )


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
