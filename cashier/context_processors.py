"""The player's chips for every page's header: the bankroll, and what sits at tables."""

from __future__ import annotations

from django.http import HttpRequest

from .selectors import bankroll_balance, chips_held


def header_chips(request: HttpRequest) -> dict[str, dict[str, int]]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"header_chips": {"bankroll": bankroll_balance(user), "at_tables": chips_held([user.pk])[user.pk]}}
