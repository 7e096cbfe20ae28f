"""The prize pool, the places paid and the prizes (RULES 8.1, 8.10)."""

from __future__ import annotations

from django.db.models import Sum

from cashier import tournament_movements

from .. import rules
from ..models import Entry, Result, Tournament


def prize_pool(tournament: Tournament) -> int:
    """The buy-ins of every entry not refunded, with their add-ons (RULES 8.1)."""
    entries = Entry.objects.filter(tournament=tournament).exclude(state=Entry.State.REFUNDED)
    total = entries.aggregate(total=Sum("buy_in"))["total"] or 0
    return total + entries.filter(add_on=True).count() * tournament.add_on_price


def entries_count(tournament: Tournament) -> int:
    return Entry.objects.filter(tournament=tournament).exclude(state=Entry.State.REFUNDED).count()


def fix_payouts(tournament: Tournament) -> None:
    """Fix the places paid and their percentages (RULES 8.10: when late registration closes)."""
    if tournament.payout_percentages is None:
        percentages = rules.payout_percentages(entries_count(tournament), tournament.payout_table)
        tournament.payout_percentages = list(percentages)
        tournament.save(update_fields=["payout_percentages"])


def prizes(tournament: Tournament) -> list[int]:
    """Each place's prize, best first, from the final prize pool (RULES 8.10)."""
    return rules.prize_amounts(prize_pool(tournament), tournament.payout_percentages or [100])


def pay_results(tournament: Tournament) -> None:
    """Pay every prize won and not yet paid, each once (its result is its idempotency key)."""
    for result in Result.objects.filter(tournament=tournament, paid=False, prize__gt=0).select_related("player"):
        tournament_movements.tournament_prize(
            user=result.player, tournament=tournament, amount=result.prize, result=result.reference
        )
        result.paid = True
        result.save(update_fields=["paid"])
