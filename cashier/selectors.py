"""Reads of the ledger: balances, what a player owns, whether they may reload, used requests."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext, ngettext

from config.numbers import chips

from .models import LedgerAccount, LedgerTransaction

if TYPE_CHECKING:
    from accounts.models import User


def bankroll_balance(user: User) -> int:
    return (
        LedgerAccount.objects.filter(kind=LedgerAccount.Kind.BANKROLL, user=user)
        .values_list("balance", flat=True)
        .first()
        or 0
    )


def chips_held(user_ids: Collection[int]) -> dict[int, int]:
    """The chips each player holds outside their bankroll, by user id (settings.CHIP_HOLDINGS:
    functions of user ids answering {user id: chips}; the tables add their stacks, pending
    top-ups and the stacks they started a running hand with). The same reads for any number
    of players."""
    held = dict.fromkeys(user_ids, 0)
    holdings: list[Callable[[Collection[int]], dict[int, int]]] = [
        import_string(path) for path in getattr(settings, "CHIP_HOLDINGS", [])
    ]
    for holding in holdings:
        for user_id, amount in holding(user_ids).items():
            held[user_id] += amount
    return held


def chips_owned_by(user_ids: Collection[int]) -> dict[int, int]:
    """Each player's bankroll plus every chip they hold elsewhere, by user id."""
    bankrolls = dict(
        LedgerAccount.objects.filter(kind=LedgerAccount.Kind.BANKROLL, user_id__in=user_ids).values_list(
            "user_id", "balance"
        )
    )
    return {user_id: bankrolls.get(user_id, 0) + held for user_id, held in chips_held(user_ids).items()}


def chips_owned(user: User) -> int:
    """The bankroll plus every chip the player holds elsewhere (chips_owned_by for one)."""
    return chips_owned_by([user.pk])[user.pk]


@dataclass(frozen=True)
class ReloadStatus:
    eligible: bool
    amount: int
    reason: str


def reload_status(*, user: User, now: datetime | None = None) -> ReloadStatus:
    """Whether the player may reload now: all their chips (bankroll and tables) below the
    threshold, and the last reload long enough ago."""
    now = now or timezone.now()
    owned = chips_owned(user)
    if owned >= settings.CHIPS_RELOAD_BELOW:
        return ReloadStatus(
            False,
            0,
            gettext("Reloads are for players with fewer than %(threshold)s chips, tables included.")
            % {"threshold": chips(settings.CHIPS_RELOAD_BELOW)},
        )
    last = (
        LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.RELOAD, reference=f"user:{user.pk}")
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    if last and now - last < settings.CHIPS_RELOAD_EVERY:
        wait = settings.CHIPS_RELOAD_EVERY - (now - last)
        minutes = int(wait.total_seconds() // 60) + 1
        return ReloadStatus(
            False,
            0,
            ngettext(
                "You can reload again in %(minutes)s minute.", "You can reload again in %(minutes)s minutes.", minutes
            )
            % {"minutes": minutes},
        )
    return ReloadStatus(True, settings.CHIPS_SIGNUP_GRANT - owned, "")


def request_used(*, user: User, request_id: str) -> bool:
    """Whether the request (the nonce of a server-made request id) already paid for a movement."""
    return LedgerTransaction.objects.filter(created_by=user, request_id=request_id).exists()
