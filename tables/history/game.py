"""How a hand's game and stakes are named, from its configuration
(``HandConfig.to_dict()`` or the ``hand_started`` event, which carry the same keys)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tables.engine import Variant
from tables.models import VARIANT_LABELS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def game_name(config: Any) -> StrOrPromise:
    return VARIANT_LABELS[config["variant"]]


def stakes_label(config: Any) -> str:
    """Limit: small bet/big bet (RULES 7.1). Pot Limit: small blind/big blind (RULES 7.2)."""
    if config["variant"] == Variant.LIMIT:
        return f"{config['big_blind']}/{config['big_bet']}"
    return f"{config['small_blind']}/{config['big_blind']}"
