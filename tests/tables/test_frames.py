"""An action's frame is read by its form (``tables.forms.parse_frame``): the form's fields are
shared by every frame's form, each frame read on its own."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.forms import ActionForm, FrameError, parse_frame

FORMS = {"call": ActionForm, "raise": ActionForm}


def test_an_action_frames_form_shares_its_fields_and_reads_each_frame_on_its_own():
    one, two = ActionForm({"sequence": "3", "amount": "40"}), ActionForm({"sequence": "x"})
    assert one.fields["sequence"] is ActionForm.base_fields["sequence"] is two.fields["sequence"]
    assert not two.is_valid() and set(two.errors) == {"sequence"}
    assert one.is_valid() and one.cleaned_data == {"sequence": 3, "amount": 40} and not one.errors
    assert parse_frame('{"action": "raise", "sequence": "7", "amount": "100"}', FORMS) == (
        "raise",
        {"amount": 100, "sequence": 7},
    )
    assert parse_frame('{"action": "call", "sequence": 8}', FORMS) == ("call", {"amount": None, "sequence": 8})
    with pytest.raises(FrameError, match="hand's step"):
        parse_frame('{"action": "call", "sequence": "-1"}', FORMS)
    with pytest.raises(FrameError, match="amount"):
        parse_frame('{"action": "raise", "sequence": "1", "amount": "0"}', FORMS)
    assert parse_frame('{"action": "call", "sequence": "9"}', FORMS) == ("call", {"amount": None, "sequence": 9})


_numbers = st.one_of(
    st.none(),
    st.integers(min_value=-(10**14), max_value=10**14),
    st.integers(min_value=-5, max_value=10**13).map(str),
    st.sampled_from(["", " 7", "7 ", "+7", "07", "7.0", "1e3", "²", "٣", "x", "0", "10000000000000"]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=15),
)


@given(sequence=_numbers, amount=_numbers, with_amount=st.booleans())
@settings(max_examples=400, deadline=None)
def test_an_action_frame_read_without_its_form_reads_as_its_form_reads_it(sequence, amount, with_amount):
    """The plain frames the page sends skip the form's machinery: whatever such a frame is,
    what it reads as is what the form cleans it to, and anything else is left to the form."""
    frame = {"action": "raise", "sequence": sequence, **({"amount": amount} if with_amount else {})}
    plain = ActionForm.clean_plain(frame)
    form = ActionForm(frame)
    if plain is not None:
        assert form.is_valid() and plain == form.cleaned_data
    amount_sent = amount if with_amount else None
    if _as_the_page_sends(sequence, 0, 10**9) and (
        amount_sent in (None, "") or _as_the_page_sends(amount_sent, 1, 10**12)
    ):
        assert plain is not None  # a frame as the page sends it skips the form


def _as_the_page_sends(value: object, low: int, high: int) -> bool:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 13:
        value = int(value)
    return type(value) is int and low <= value <= high
