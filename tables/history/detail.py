"""Everything the hand page shows, for one viewer and one replayer step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils import timezone

from tables.engine import Variant

from .access import HandRecord, open_hand
from .fairness import HandProof, hand_proof
from .game import game_name, stakes_label
from .replayer import Replay, Step, replay

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from accounts.models import User


@dataclass(frozen=True, slots=True)
class HandPage:
    """``step`` is the one shown; ``previous_step``/``next_step`` are step numbers or None at the ends."""

    record: HandRecord
    game: StrOrPromise  # translated when shown
    stakes: str
    replay: Replay
    step: Step
    previous_step: int | None
    next_step: int | None
    proof: HandProof | None
    phh_available: bool

    @property
    def last_step(self) -> int:
        return len(self.replay.steps) - 1


def hand_page(user: User, hand_id: int, step_text: str | None) -> HandPage:
    """The page of a hand ``user`` may open (else Http404), at step ``step_text`` (default: the last)."""
    record = open_hand(user, hand_id)
    hand_replay = replay(record.events)
    last = len(hand_replay.steps) - 1
    number = _step_number(step_text, last)
    config = record.hand.config
    return HandPage(
        record=record,
        game=game_name(config),
        stakes=stakes_label(config),
        replay=hand_replay,
        step=hand_replay.steps[number],
        previous_step=number - 1 if number > 0 else None,
        next_step=number + 1 if number < last else None,
        proof=hand_proof(record, user, timezone.now()),
        phh_available=record.is_complete and config["variant"] == Variant.POT_LIMIT.value,
    )


def _step_number(text: str | None, last: int) -> int:
    if text is None:
        return last
    try:
        number = int(text)
    except ValueError:
        return last
    return min(max(number, 0), last)
