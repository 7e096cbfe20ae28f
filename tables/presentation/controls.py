"""The action buttons for the seat to act, made only from what ``legal_actions`` allows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from tables.engine import ActionKind


@dataclass(frozen=True)
class Preset:
    """A Pot Limit sizing shortcut that fills in the "raise to" amount."""

    label: str
    amount: int


@dataclass(frozen=True)
class ActionControls:
    sequence: int  # sent back with the action so a stale click is refused
    can_check: bool
    call_amount: int  # 0 when checking is possible
    call_is_all_in: bool
    wager_kind: ActionKind | None  # BET, RAISE, or None when neither is allowed (e.g. capped)
    min_to: int | None
    max_to: int | None
    wager_is_all_in: bool  # the largest wager is the whole stack
    presets: list[Preset] = field(default_factory=list)

    @property
    def fixed_wager(self) -> bool:
        """Limit (or a stack that allows one amount only): one button, no amount box."""
        return self.wager_kind is not None and self.min_to == self.max_to


def action_controls(view: dict[str, Any], sequence: int) -> ActionControls | None:
    """The controls for the viewer of ``view`` (an engine ``view_for``), or None if not their turn."""
    legal = view["legal_actions"]
    if legal is None:
        return None
    me = next(seat for seat in view["seats"] if seat["seat"] == legal["seat"])
    all_in_to = me["bet"] + me["stack"]
    min_to, max_to = legal["min_to"], legal["max_to"]
    presets = []
    if legal["bet_kind"] is not None and min_to != max_to:
        presets = _pot_limit_presets(view, legal, all_in_to)
    return ActionControls(
        sequence=sequence,
        can_check=legal["can_check"],
        call_amount=legal["call_amount"],
        call_is_all_in=not legal["can_check"] and legal["call_amount"] == me["stack"],
        wager_kind=legal["bet_kind"],
        min_to=min_to,
        max_to=max_to,
        wager_is_all_in=max_to is not None and max_to == all_in_to,
        presets=presets,
    )


def _pot_limit_presets(view: dict[str, Any], legal: dict[str, Any], all_in_to: int) -> list[Preset]:
    """Minimum, half pot and pot (or all-in when the stack is smaller than a pot-size raise).

    Half pot is "call, then raise by half the pot after the call", kept
    inside the engine's [min_to, max_to].
    """
    min_to, max_to = legal["min_to"], legal["max_to"]
    me = next(seat for seat in view["seats"] if seat["seat"] == legal["seat"])
    bet_to_match = me["bet"] + legal["call_amount"]
    pot_after_call = view["total_pot"] + legal["call_amount"]
    half_pot_to = min(max(bet_to_match + pot_after_call // 2, min_to), max_to)
    top_label = gettext("All-in") if max_to == all_in_to else gettext("Pot")
    # Short stacks and small pots make amounts coincide: one button per amount,
    # named by the end of the range it sits on.
    unique: dict[int, Preset] = {}
    for preset in (Preset(gettext("Min"), min_to), Preset(top_label, max_to), Preset(gettext("½ Pot"), half_pot_to)):
        unique.setdefault(preset.amount, preset)
    return sorted(unique.values(), key=lambda preset: preset.amount)
