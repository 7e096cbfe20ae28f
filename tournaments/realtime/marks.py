"""A player's own marks in the tournament lobby's rows (registered, their table), filled into
the slots the shared rows leave for them (``<!--mine:ID-->``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext

from .. import selectors

Marks = dict[int, tuple[bool, int | None]]  # tournament id -> (registered, table id)


def marks_of(user) -> Marks:
    if not user.is_authenticated:
        return {}
    return {tid: (mark.registered, mark.table_id) for tid, mark in selectors.marks_of(user).items()}


def marks_message(tournament_id: int) -> dict:
    """The changed tournament's marks, for every socket to take its viewer's from."""
    marks = selectors.marks_in(tournament_id)
    return {"tournament_id": tournament_id, "marks": [[pid, m.table_id] for pid, m in marks.items()]}


def take_marks(marks: Marks, user_id: int | None, event: dict) -> None:
    """Update a viewer's marks from a change's message: theirs in that tournament, or none."""
    tournament_id = event["tournament_id"]
    mine = next((row for row in event["marks"] if row[0] == user_id), None)
    if mine is None:
        marks.pop(tournament_id, None)
    else:
        marks[tournament_id] = (True, mine[1])


def with_marks(html: str, marks: Marks) -> str:
    """The rows with the viewer's marks, in the active language."""
    for tournament_id, (registered, table_id) in marks.items():
        slot = f"<!--mine:{tournament_id}-->"
        if slot not in html:
            continue
        words = format_html("<br><small>{}</small>", gettext("You are registered")) if registered else ""
        if table_id is not None:
            words += format_html('<br><a href="{}">{}</a>', reverse("table", args=[table_id]), gettext("Open my table"))
        html = html.replace(slot, words)
    return html
