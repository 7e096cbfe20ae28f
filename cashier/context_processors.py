"""The player's chips for every page's header: the bankroll, and what sits at tables."""

from __future__ import annotations

from django.http import HttpRequest

from .selectors import bankroll_balance, chips_owned


def header_chips(request: HttpRequest) -> dict[str, dict[str, int]]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    bankroll = bankroll_balance(user)
    return {"header_chips": {"bankroll": bankroll, "at_tables": chips_owned(user) - bankroll}}
