"""Hands played from their seeds (no arranged deck), for the fair-dealing tests."""

from __future__ import annotations

from tables import services
from tables.selectors.hands import rebuild

from .tables import running_hand


def check_down(table, players: dict) -> None:
    """Everyone checks or calls until the hand ends, whatever the deck (``players``: name -> user)."""
    by_id = {player.pk: player for player in players.values()}
    while (hand := running_hand(table)) is not None:
        legal = rebuild(hand).legal_actions()
        seat_owner = hand.players.get(seat=legal.seat).player_id
        kind = "check" if legal.can_check else "call"
        services.act(table_id=table.pk, user=by_id[seat_owner], kind=kind, amount=None, sequence=hand.sequence)
