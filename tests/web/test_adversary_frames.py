"""The frame-level adversary (bench/adversary.py) for a few thousand steps over channels-redis:
a crowd of players replaying, flooding and racing each other through the real table consumers,
with the chips checked after every step. ``python -m bench.adversary --steps 100000`` runs it
at length; test_adversary_frames_in_memory.py plays it over the in-process layer."""

import pytest

from ..support.frame_adversary import play_and_check

# A bounded number of steps: a loaded machine takes longer, it is not wrong (the 300 s default is too short).
pytestmark = [pytest.mark.long, pytest.mark.timeout(1200), pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("channel_layer", ["redis"], indirect=True)
def test_no_frame_sequence_creates_or_moves_chips_it_should_not(settings, channel_layer):
    play_and_check(settings)
