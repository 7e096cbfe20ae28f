"""Locking a tournament: its live tables first (by primary key), then its row."""

from __future__ import annotations

from django.utils.translation import gettext

from tables.models import Table
from tables.services.locking import lock_table

from ..errors import TournamentError
from ..models import Tournament, TournamentTable


def lock_tournament(tournament_id: int) -> tuple[Tournament, list[Table]]:
    """Lock the tournament's unbroken tables, then the tournament (inside atomic())."""
    table_ids = sorted(
        TournamentTable.objects.filter(tournament_id=tournament_id, broken=False).values_list("table_id", flat=True)
    )
    tables = [lock_table(table_id) for table_id in table_ids]
    try:
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise TournamentError(gettext("That tournament does not exist.")) from None
    return tournament, tables
