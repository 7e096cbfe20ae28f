"""An action's frame is read by its form (``tables.forms.parse_frame``): the form's fields are
shared by every frame's form, each frame read on its own."""

import pytest

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
