"""A player's whole history as files: one PokerStars text of every hand, and a PHH file per Pot Limit hand.

Both are generators over ``access.every_own_complete_hand``, which reads the hands in
batches and shows each as the player saw it at the table, so the download holds no
card of another player that was not shown, and no length limit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from tables.engine import Variant

from .access import every_own_complete_hand
from .archive import streamed_zip
from .numbering import exported_hand_number, installation_number
from .phh import PhhUnavailable, phh_text
from .pokerstars import pokerstars_stream

if TYPE_CHECKING:
    from accounts.models import User


def pokerstars_history(user: User) -> Iterator[str]:
    return iter(pokerstars_stream(every_own_complete_hand(user), installation_number()))


def phh_files(user: User) -> Iterator[bytes]:
    return streamed_zip(_phh_named(user))


NOT_IN_PHH = "not-in-phh.txt"


def _phh_named(user: User) -> Iterator[tuple[str, str]]:
    installation = installation_number()
    left_out: list[str] = []
    for record in every_own_complete_hand(user, variant=Variant.POT_LIMIT):
        number = exported_hand_number(installation, record.hand.pk)
        try:
            text = phh_text(record, installation)
        except PhhUnavailable as reason:
            left_out.append(f"Hand #{number}: {reason}")
        else:
            yield f"hand-{number}.phh", text
    if left_out:  # said in the archive itself, so that no hand goes missing without a word
        yield NOT_IN_PHH, "\n".join(left_out) + "\n"
