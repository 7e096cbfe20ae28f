"""Exported hand numbers: unique per installation, and a hand's number never changes.

Trackers key hands on "PokerStars Hand #N", so a number must not repeat across
rooms, nor after this room's database is reset. The installation's random six-digit
number (``Installation``, a row created once) is folded above the hand's own id:
``installation * 10**12 + hand id``, eighteen digits, within the 64-bit integers
trackers store hand numbers in. Both parts are fixed once a hand exists.
"""

from tables.models import Installation

HAND_IDS_PER_INSTALLATION = 10**12


def installation_number() -> int:
    return Installation.current().number


def exported_hand_number(installation: int, hand_id: int) -> int:
    if not 0 < hand_id < HAND_IDS_PER_INSTALLATION:
        raise ValueError(f"A hand id from 1 to {HAND_IDS_PER_INSTALLATION - 1}; got {hand_id}.")
    return installation * HAND_IDS_PER_INSTALLATION + hand_id


def exported_tournament_number(installation: int, tournament_id: int) -> int:
    """A tournament's number in exported histories ("Tournament #N"), which trackers key a
    tournament on: unique per installation in the same way as a hand's."""
    return exported_hand_number(installation, tournament_id)
