"""The frame-level adversary over the in-process channel layer (the embedded default's): the
same crowd and checks as test_adversary_frames.py, in a module of its own so that the two
runs go to different workers."""

import pytest

from ..support.frame_adversary import play_and_check

# A bounded number of steps: a loaded machine takes longer, it is not wrong (the 300 s default is too short).
pytestmark = [pytest.mark.long, pytest.mark.timeout(1200), pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("channel_layer", ["in-memory"], indirect=True)
def test_no_frame_sequence_creates_or_moves_chips_it_should_not(settings, channel_layer):
    play_and_check(settings)
