"""Cancelling a tournament, exactly once (RULES 8.12)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from cashier import services as cashier
from tables.models import Seat

from ..errors import TournamentError
from ..models import Entry, Result, Tournament, TournamentTable
from . import notify
from .locks import lock_tournament
from .payouts import pay_results
from .play import close_tables, hand_running
from .registration import refund
from .seating import unseat


def cancel(*, tournament_id: int, now: datetime | None = None) -> Tournament:
    """Staff cancel: before the start every buy-in and fee comes back; after it, the prize pool
    left is shared in proportion to the chips each remaining player holds, prizes already won
    staying won (RULES 8.12). A second cancel changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament, _ = lock_tournament(tournament_id)
        if tournament.state in (Tournament.State.FINISHED, Tournament.State.CANCELLED):
            raise TournamentError(gettext("The tournament is over already."))
        cancel_locked(tournament, now)
        notify.changed(tournament)
    return tournament


def cancel_locked(tournament: Tournament, now: datetime) -> None:
    if tournament.state == Tournament.State.RUNNING:
        _share_the_pool(tournament)
    else:
        for entry in Entry.objects.filter(tournament=tournament, state=Entry.State.REGISTERED).select_related("player"):
            refund(tournament, entry)
    tournament.state = Tournament.State.CANCELLED
    tournament.finished_at = now
    tournament.hand_for_hand = False
    tournament.save()


def _share_the_pool(tournament: Tournament) -> None:
    links = {link.table_id: link for link in TournamentTable.objects.filter(tournament=tournament, broken=False)}
    if any(hand_running(table_id) for table_id in links):
        raise TournamentError(gettext("A hand is in progress: cancel again between hands."))
    pool = cashier.tournament_account(tournament).balance - _unpaid_prizes(tournament)
    seats = list(Seat.objects.filter(table_id__in=links).select_related("player", "session"))
    chips = {seat.player_id: seat.stack for seat in seats}
    total = sum(chips.values())
    shares = {player: pool * stack // total if total else 0 for player, stack in chips.items()}
    # The chips the division leaves go one each to the biggest stacks.
    for player in sorted(chips, key=lambda p: -chips[p])[: pool - sum(shares.values())]:
        shares[player] += 1
    for player, stack in chips.items():
        # Places by chips, equal stacks tying for the best of their places.
        place = 1 + sum(1 for other in chips.values() if other > stack)
        Result.objects.create(tournament=tournament, player_id=player, place=place, prize=shares[player])
    Entry.objects.filter(tournament=tournament, state=Entry.State.PLAYING).update(state=Entry.State.ELIMINATED)
    for seat in seats:
        unseat(seat)
    close_tables(tournament, links)
    pay_results(tournament)


def _unpaid_prizes(tournament: Tournament) -> int:
    return sum(Result.objects.filter(tournament=tournament, paid=False).values_list("prize", flat=True))
