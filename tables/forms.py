"""Frames a table page sends over its websocket, checked before any service sees them.

The htmx websocket extension sends a form's fields as a JSON object of
strings (plus a ``HEADERS`` object). ``parse_frame`` turns one frame into
``(command, cleaned data)`` or raises ``FrameError`` with a message for the
player: anything malformed stops here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext, gettext_lazy

from accounts.forms import IdempotentForm
from tables.engine.config import MAX_SEATS

# Bounds far above any real stack or hand, so a huge number is a bad frame, not a database error.
MAX_CHIPS = 10**12
MAX_SEQUENCE = 10**9
MAX_FRAME_CHARS = 4096

# RULES 2.7, 2.11: one big blind, a live bet, and no dead small blind.
BIG_BLIND_CHOICES = [
    ("wait", gettext_lazy("Wait for the big blind")),
    ("now", gettext_lazy("Post one big blind now and play the next hand (no dead small blind)")),
]
# How a refusal names a frame's field.
FIELD_LABELS = {
    "amount": gettext_lazy("amount"),
    "sequence": gettext_lazy("hand's step"),
    "seat_number": gettext_lazy("seat number"),
    "buy_in": gettext_lazy("buy-in"),
    "big_blind": gettext_lazy("big blind choice"),
    "request_id": gettext_lazy("form"),
}


class FrameError(ValueError):
    """A frame that is not a valid command; the message is shown to the player."""


class _SharedFields(dict):
    """A form's fields that its instances share instead of each copying them (Django copies a
    form's fields for every instance): for a form that only cleans data with them."""

    def __deepcopy__(self, memo: dict) -> _SharedFields:
        return _SharedFields(self)


def _fields_shared(form: type[forms.Form]) -> type[forms.Form]:
    form.base_fields = _SharedFields(form.base_fields)
    return form


@_fields_shared  # every action's frame: copying its fields was most of the cost of reading it
class ActionForm(forms.Form):
    """fold / check / call / bet / raise, against the hand's current ``sequence``."""

    amount = forms.IntegerField(required=False, min_value=1, max_value=MAX_CHIPS)
    sequence = forms.IntegerField(min_value=0, max_value=MAX_SEQUENCE)

    @classmethod
    def clean_plain(cls, frame: Mapping[str, object]) -> dict[str, int | None] | None:
        """The cleaned data of a frame as the page sends it (its numbers plain digits, within
        their bounds), exactly as the form cleans it, without the form's machinery: every
        player's every action is such a frame. None for any other frame: the form reads it,
        and says what is wrong."""
        sequence = _plain_number(frame.get("sequence"))
        if sequence is None or sequence > MAX_SEQUENCE:
            return None
        amount = frame.get("amount")
        if amount is None or amount == "":
            return {"amount": None, "sequence": sequence}
        chips = _plain_number(amount)
        if chips is None or not 1 <= chips <= MAX_CHIPS:
            return None
        return {"amount": chips, "sequence": sequence}


def _plain_number(value: object) -> int | None:
    """A whole number of at most 13 plain digits (a JSON number, or its digits as a string); None otherwise."""
    if type(value) is int:
        return value if 0 <= value < 10**13 else None
    if type(value) is str and 0 < len(value) <= 13 and value.isascii() and value.isdigit():
        return int(value)
    return None


class TakeSeatForm(IdempotentForm):
    seat_number = forms.IntegerField(min_value=1, max_value=MAX_SEATS)
    buy_in = forms.IntegerField(min_value=1, max_value=MAX_CHIPS)
    big_blind = forms.ChoiceField(choices=BIG_BLIND_CHOICES)  # RULES 2.7


class SitInForm(forms.Form):
    big_blind = forms.ChoiceField(choices=BIG_BLIND_CHOICES)  # RULES 2.7


class TopUpForm(IdempotentForm):
    amount = forms.IntegerField(min_value=1, max_value=MAX_CHIPS)


class ContributeForm(forms.Form):
    """A seated player's random value for the next hand's deck (docs/fair-dealing.md)."""

    seed_commitment = forms.RegexField(regex=r"^[0-9a-f]{64}$", max_length=64)
    value = forms.RegexField(regex=r"^[0-9a-f]{64}$", max_length=64)


class NoFieldsForm(forms.Form):
    pass


class SeatOptionsForm(forms.Form):
    sit_out_next_big_blind = forms.BooleanField(required=False)
    leave_after_hand = forms.BooleanField(required=False)
    auto_top_up = forms.BooleanField(required=False)
    auto_top_up_to = forms.IntegerField(required=False, min_value=0, max_value=MAX_CHIPS)


class ChatForm(forms.Form):
    """The service checks the length against ``CHAT_MAX_CHARS`` (after tidying the spaces)."""

    text = forms.CharField(required=False, strip=False, max_length=MAX_FRAME_CHARS)


class MuteForm(forms.Form):
    player = forms.IntegerField(min_value=1, max_value=2**63 - 1)


def seat_forms_purpose(table_id: int) -> str:
    """What the request ids of a table's seat forms are for (``accounts.request_ids``)."""
    return f"seat-forms:{table_id}"


def parse_frame(text: object, frame_forms: Mapping[str, type[forms.Form]]) -> tuple[str, dict]:
    """``(command, cleaned data)`` for one websocket text frame, or ``FrameError``;
    ``frame_forms``: the form of each command (``tables.realtime.commands``)."""
    if not isinstance(text, str) or len(text) > MAX_FRAME_CHARS:
        raise FrameError(gettext("That message could not be read."))
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):  # deeply nested JSON raises RecursionError
        raise FrameError(gettext("That message could not be read.")) from None
    if not isinstance(frame, dict):
        raise FrameError(gettext("That message could not be read."))
    command = frame.get("action")
    if not isinstance(command, str) or command not in frame_forms:
        raise FrameError(gettext("Unknown action."))
    # Form fields expect strings (what htmx sends); JSON numbers are accepted too, other types are not.
    if any(isinstance(value, (dict, list, bool)) for key, value in frame.items() if key != "HEADERS"):
        raise FrameError(gettext("That message could not be read."))
    form_class = frame_forms[command]
    plain = getattr(form_class, "clean_plain", None)
    cleaned = plain(frame) if plain is not None else None
    if cleaned is not None:
        return command, cleaned
    form = form_class(frame)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        label = FIELD_LABELS.get(field, field.replace("_", " "))
        raise FrameError(
            gettext("Check the %(field)s: %(error)s") % {"field": label, "error": errors[0]}
            if field != "__all__"
            else errors[0]
        )
    return command, form.cleaned_data
