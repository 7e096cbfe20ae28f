"""After a tournament changes, whoever listens hears of it once the transaction commits (the
tournament lobby's socket pushes subscribe in ``tournaments.apps``)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from ..models import Tournament

Listener = Callable[[int], None]
_listeners: list[Listener] = []


def subscribe(listener: Listener) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def changed(tournament: Tournament) -> None:
    tournament_id = tournament.pk
    transaction.on_commit(lambda: [listener(tournament_id) for listener in _listeners])
