"""Who is dealt in, and who has the button and the blinds, hand after hand.

RULES 2.1, 2.2, 2.3 and 2.7, with the "moving button" convention of Robert's
Rules of Poker (the button always moves forward to the next player; the
blinds adjust, and there may be more than one big blind) plus the usual
online handling of newcomers. Seats are numbered 1..N clockwise (RULES 1.1).

Vocabulary used below:

* a *regular* is a ready player who owes nothing to enter: they were dealt
  in before and did not miss their big blind;
* an *entrant* is a ready player who joined a running game, or came back
  from sitting out after missing the big blind (RULES 2.7). An entrant
  either waits for the big blind or chose to post a big blind now.

The plan for one hand:

1. First hand at a table (no previous button): everyone ready is dealt in;
   the first player to sit is the button (RULES 2.1). The same fresh start
   applies when fewer than two regulars remain: no game is running, so no one
   has a big blind to wait for; the button then moves on from its last seat.
2. Otherwise the button moves to the next regular clockwise (RULES 2.2;
   an entrant enters through a big blind, never on the button).
3. The small blind is the next regular left of the button; the big blind is
   the next regular or entrant left of the small blind (RULES 2.3). An
   entrant whom the big blind reaches is dealt in and posts it (RULES 2.7).
4. Heads-up, when no one can take the big blind between the two regulars,
   the button posts the small blind and the other player the big blind
   (RULES 2.3). The hand engine, not this module, makes the button act first
   before the flop and last after it.
5. An entrant who chose to post now is dealt in and posts a big blind out of
   position, unless their seat lies between the button and the big blind: as
   in standard online rooms, nobody may post in between the button and the
   blinds; they come in once the button has passed them.

Blind amounts, and short stacks that post all they have (RULES 2.8), are
the hand engine's concern: a seat planned for a blind posts it as it can.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MIN_SEATS = 2
MAX_SEATS = 10


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatStatus:
    """One occupied seat, as the table layer sees it before a hand.

    ``sat_order``: lower means the player sat down earlier (RULES 2.1).
    ``ready``: seated with chips and not sitting out.
    ``waiting_for_big_blind``: an entrant (see the module docstring) who has
    not yet posted their way in.
    ``wants_to_post_now``: the entrant chose to post a big blind and play the
    next hand rather than wait (RULES 2.7); ignored for a regular.
    """

    seat: int
    sat_order: int
    ready: bool = True
    waiting_for_big_blind: bool = False
    wants_to_post_now: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class HandPositions:
    """The seats for one hand.

    ``small_blind_seat`` equals ``button`` heads-up. ``dealt_in`` runs
    clockwise from the player left of the button, so it also is the dealing
    order (RULES 1.4) and ends with the button. ``extra_big_blinds`` are
    entrants posting a big blind out of position (RULES 2.7).
    """

    button: int
    small_blind_seat: int
    big_blind_seat: int
    dealt_in: tuple[int, ...]
    extra_big_blinds: tuple[int, ...]


def plan_next_hand(
    *,
    seat_count: int,
    previous_button: int | None,
    candidates: Sequence[SeatStatus],
) -> HandPositions | None:
    """Plan the next hand, or return None if fewer than two can be dealt in.

    ``previous_button`` is the button seat of the table's last hand, or None
    for its first hand. ``candidates`` lists every occupied seat. Raises
    ``ValueError`` for impossible seat numbers.
    """
    _check_seats(seat_count, previous_button, candidates)
    ready = [status for status in candidates if status.ready]
    regulars = [s.seat for s in ready if not s.waiting_for_big_blind]
    if previous_button is None or len(regulars) < 2:
        return _plan_fresh_start(seat_count, previous_button, ready)

    clock = _Clock(seat_count)
    entrants = {s.seat: s for s in ready if s.waiting_for_big_blind}
    button = clock.next_of(regulars, after=previous_button)
    small_blind = clock.next_of(regulars, after=button)
    big_blind = clock.next_of([*regulars, *entrants], after=small_blind)
    if big_blind == button:
        # Heads-up: only the button can follow the other regular.
        small_blind, big_blind = button, small_blind

    posting_now = [
        seat
        for seat, status in entrants.items()
        if status.wants_to_post_now
        and seat != big_blind
        and not clock.is_between(seat, start=button, end=big_blind)
    ]
    dealt_in = {*regulars, *posting_now, big_blind}
    return HandPositions(
        button=button,
        small_blind_seat=small_blind,
        big_blind_seat=big_blind,
        dealt_in=clock.order_from(dealt_in, after=button),
        extra_big_blinds=clock.order_from(posting_now, after=button),
    )


def _plan_fresh_start(
    seat_count: int, previous_button: int | None, ready: list[SeatStatus]
) -> HandPositions | None:
    if len(ready) < 2:
        return None
    clock = _Clock(seat_count)
    seats = [status.seat for status in ready]
    if previous_button is None:
        button = min(ready, key=lambda status: (status.sat_order, status.seat)).seat
    else:
        button = clock.next_of(seats, after=previous_button)
    dealt_in = clock.order_from(seats, after=button)
    if len(dealt_in) == 2:
        small_blind, big_blind = button, dealt_in[0]
    else:
        small_blind, big_blind = dealt_in[0], dealt_in[1]
    return HandPositions(
        button=button,
        small_blind_seat=small_blind,
        big_blind_seat=big_blind,
        dealt_in=dealt_in,
        extra_big_blinds=(),
    )


@dataclass(frozen=True, slots=True)
class _Clock:
    """Clockwise arithmetic on seats 1..seat_count."""

    seat_count: int

    def distance(self, start: int, end: int) -> int:
        """Seats to move clockwise from ``start`` to reach ``end`` (0..N-1)."""
        return (end - start) % self.seat_count

    def next_of(self, seats: Sequence[int], *, after: int) -> int:
        """The first of ``seats`` clockwise after seat ``after``, never itself."""
        others = [seat for seat in seats if seat != after]
        return min(others, key=lambda seat: self.distance(after, seat))

    def is_between(self, seat: int, *, start: int, end: int) -> bool:
        """Whether ``seat`` lies strictly between ``start`` and ``end`` clockwise."""
        return 0 < self.distance(start, seat) < self.distance(start, end)

    def order_from(self, seats: Iterable[int], *, after: int) -> tuple[int, ...]:
        """``seats`` in clockwise order starting left of seat ``after``."""
        return tuple(sorted(seats, key=lambda seat: self.distance(after + 1, seat)))


def _check_seats(
    seat_count: int, previous_button: int | None, candidates: Sequence[SeatStatus]
) -> None:
    if not MIN_SEATS <= seat_count <= MAX_SEATS:
        raise ValueError(f"A table has {MIN_SEATS} to {MAX_SEATS} seats; got {seat_count}.")
    seats = [status.seat for status in candidates]
    if previous_button is not None:
        seats.append(previous_button)
    if any(not 1 <= seat <= seat_count for seat in seats):
        raise ValueError(f"Seats are numbered 1 to {seat_count}; got {sorted(seats)}.")
    if len({status.seat for status in candidates}) != len(candidates):
        raise ValueError("Each seat may appear only once among the candidates.")
