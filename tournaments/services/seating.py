"""Seating tournament players at tournament tables (RULES 8.2, 8.7, 8.8)."""

from __future__ import annotations

import secrets

from django.utils import timezone

from tables.models import Seat, SeatSession, Table

from .. import rules

State = Seat.State
_random = secrets.SystemRandom()


def seat_player(table: Table, player, stack: int, number: int, *, arriving: bool) -> Seat:
    """A tournament seat: an occupancy that paid nothing (the chips are the tournament's,
    RULES 8.1). ``arriving``: dealt in as RULES 8.2 says (late registration, balancing,
    breaking); at the start everyone plays the first hand."""
    occupancy = SeatSession.objects.create(table=table, seat_number=number, player=player, buy_in=0)
    return Seat.objects.create(
        table=table,
        number=number,
        player=player,
        session=occupancy,
        stack=stack,
        state=State.WAITING_FOR_BIG_BLIND if arriving else State.PLAYING,
        time_bank_ms=table.initial_time_bank_ms,
    )


def unseat(seat: Seat) -> int:
    """Free a tournament seat; returns its chips (they follow the player to the next table)."""
    chips = seat.stack
    occupancy = seat.session
    seat.delete()
    occupancy.ended_at = timezone.now()
    occupancy.cashed_out = 0
    occupancy.save(update_fields=["ended_at", "cashed_out"])
    return chips


def free_seats(table: Table) -> list[int]:
    taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
    return [number for number in range(1, table.seat_count + 1) if number not in taken]


def random_free_seat(table: Table) -> int:
    return _random.choice(free_seats(table))


def last_big_blind(table: Table) -> int | None:
    hand = table.hands.order_by("-number").only("config").first()
    return None if hand is None else hand.config["big_blind_seat"]


def move_player(seat: Seat, to: Table, *, worst: bool) -> Seat:
    """Move a player with their chips: into the seat that posts the big blind soonest (balancing,
    RULES 8.7) or a free seat drawn at random (a table breaking, RULES 8.8)."""
    free = free_seats(to)
    if worst:
        occupied = list(Seat.objects.filter(table=to).values_list("number", flat=True))
        number = rules.worst_free_seat(free, occupied, last_big_blind(to), to.seat_count)
    else:
        number = _random.choice(free)
    player = seat.player
    chips = unseat(seat)
    return seat_player(to, player, chips, number, arriving=True)


def shuffled(items: list) -> list:
    items = list(items)
    _random.shuffle(items)
    return items
