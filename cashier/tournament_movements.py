"""The tournaments' chip movements (RULES 8.1, 8.10, 8.12): buy-ins, add-ons and fees from the
bankroll, refunds, and prizes from the tournament's prize pool, each once per entry or result,
through the cashier's one transfer (``services.transfer``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .services import (
    Kind,
    Transfer,
    bankroll_account,
    checked_reference,
    checked_request_id,
    house_account,
    tournament_account,
    transfer,
)

if TYPE_CHECKING:
    from accounts.models import User
    from tournaments.models import Tournament

# What tournament movements pay for: one entry, or one finishing place (RULES 8.1).
_ENTRY = re.compile(r"entry:[1-9][0-9]*")
_RESULT = re.compile(r"result:[1-9][0-9]*")


def tournament_buy_in(*, user: User, tournament: Tournament, amount: int, entry: str, request_id: str) -> Transfer:
    """Bankroll -> the tournament's prize pool: one buy-in per entry (a re-entry is an entry)."""
    return transfer(
        kind=Kind.TOURNEY_BUY_IN,
        key=f"tourney-buy-in:{checked_reference(entry, _ENTRY)}",
        reference=entry,
        source=bankroll_account(user),
        destination=tournament_account(tournament),
        amount=amount,
        requested_by=user,
        request_id=checked_request_id(request_id),
    )


def tournament_add_on(*, user: User, tournament: Tournament, amount: int, entry: str, request_id: str) -> Transfer:
    """Bankroll -> the prize pool: the entry's one add-on."""
    return transfer(
        kind=Kind.TOURNEY_BUY_IN,
        key=f"tourney-add-on:{checked_reference(entry, _ENTRY)}",
        reference=entry,
        source=bankroll_account(user),
        destination=tournament_account(tournament),
        amount=amount,
        memo="add-on",
        requested_by=user,
        request_id=checked_request_id(request_id),
    )


def tournament_fee(*, user: User, amount: int, entry: str) -> Transfer:
    """Bankroll -> the house: the entry fee, once per entry (paid with its buy-in)."""
    return transfer(
        kind=Kind.TOURNEY_FEE,
        key=f"tourney-fee:{checked_reference(entry, _ENTRY)}",
        reference=entry,
        source=bankroll_account(user),
        destination=house_account(),
        amount=amount,
        requested_by=user,
    )


def tournament_refund(*, user: User, tournament: Tournament, amount: int, entry: str) -> Transfer:
    """The prize pool -> the bankroll: an entry's buy-in back (unregistering, RULES 8.12), once."""
    return transfer(
        kind=Kind.TOURNEY_REFUND,
        key=f"tourney-refund:{checked_reference(entry, _ENTRY)}",
        reference=entry,
        source=tournament_account(tournament),
        destination=bankroll_account(user),
        amount=amount,
    )


def tournament_fee_refund(*, user: User, amount: int, entry: str) -> Transfer:
    """The house -> the bankroll: an entry's fee back (RULES 8.12), once."""
    return transfer(
        kind=Kind.TOURNEY_REFUND,
        key=f"tourney-fee-refund:{checked_reference(entry, _ENTRY)}",
        reference=entry,
        source=house_account(),
        destination=bankroll_account(user),
        amount=amount,
        memo="fee",
    )


def tournament_prize(*, user: User, tournament: Tournament, amount: int, result: str) -> Transfer:
    """The prize pool -> the bankroll: one finishing place's prize (RULES 8.10), or a share of a
    cancelled tournament's pool (RULES 8.12), once per result."""
    return transfer(
        kind=Kind.PRIZE,
        key=f"prize:{checked_reference(result, _RESULT)}",
        reference=result,
        source=tournament_account(tournament),
        destination=bankroll_account(user),
        amount=amount,
    )
