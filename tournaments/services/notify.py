"""After a tournament changes, whoever listens hears of it once the transaction commits (the
tournament lobby's socket pushes and the start alerts subscribe in ``tournaments.apps``)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from ..models import Tournament

Listener = Callable[[int], None]
_listeners: list[Listener] = []
_start_listeners: list[Listener] = []


def subscribe(listener: Listener) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def subscribe_started(listener: Listener) -> None:
    """``listener(tournament_id)`` once a tournament's start (its players seated) commits."""
    if listener not in _start_listeners:
        _start_listeners.append(listener)


def changed(tournament: Tournament) -> None:
    tournament_id = tournament.pk
    transaction.on_commit(lambda: [listener(tournament_id) for listener in _listeners])


def started(tournament: Tournament) -> None:
    tournament_id = tournament.pk
    transaction.on_commit(lambda: [listener(tournament_id) for listener in _start_listeners])
