"""Who is dealt in, and who has the button and the blinds, hand after hand.

RULES 2.1-2.3, 2.7 and 2.9-2.11. The blinds follow the *dead-button* rule of
Robert's Rules of Poker (RULES 2.9): the big blind always moves to the next
player due to pay it, and the small blind and the button follow it, so when
players leave a hand may have no small blind (a *dead small blind*) or a
button on a seat nobody is dealt in from (a *dead button*). Seats are
numbered 1..N clockwise (RULES 1.1).

Vocabulary used below:

* a *regular* is a ready player who owes nothing to enter: they were dealt
  in before and did not sit out since;
* an *entrant* is a ready player who joined a running game, or came back
  from sitting out (RULES 2.7, 2.11). An entrant either waits for the big
  blind or chose to post one big blind now;
* the *small-blind position* of a hand is the seat of the previous hand's big
  blind: where the small blind is posted, or would have been when it is dead.

The plan for one hand:

1. The table's first hand: everyone ready is dealt in; the first player to
   sit is the button and the blinds follow to the left (RULES 2.1, 2.3).
2. The big blind moves to the first ready player (regular or entrant)
   clockwise after the last hand's big blind. It passes over empty seats and
   players sitting out, never over a player who is there, so nobody skips it
   and nobody posts it twice in a row (RULES 2.9). An entrant it reaches is
   dealt in and posts it (RULES 2.7).
3. The small blind is posted by the last hand's big blind, if that player is
   still a regular; otherwise it is dead and nobody posts it (RULES 2.9).
4. The button goes to the last hand's small-blind position: the seat of its
   small blind or, when that was dead, of the big blind of the hand before.
   If nobody is dealt in from that seat (its player left, sits out, or has
   just sat down there), the button is dead: it stays on that seat and the
   player to its right acts last (RULES 2.9).
5. Heads-up (the big blind falls on one of exactly two regulars): the other
   posts the small blind on the button (RULES 2.3). Since the big blind
   still goes to the player next in line (step 2), a table going from three
   or more players to two never makes anyone post it twice in a row
   (RULES 2.10, TDA rule 34). The hand engine, not this module, makes the
   button act first before the flop and last after it.
6. An entrant who chose to post now is dealt in and posts one big blind, a
   live bet, with no dead small blind (RULES 2.7, 2.11), unless they sit on
   the button's seat or between it and the big blind (nobody enters there:
   they come in once the button has passed them, as in Robert's Rules and
   online rooms), or the hand is heads-up (a third player would sit between
   the big blind and the button; the big blind reaches them within two hands).
7. No game is running (fewer than two regulars): everyone ready is dealt in,
   with both blinds and a live button. The big blind still goes to the first
   ready player after the last hand's big blind; the small blind and the
   button go to the nearest ready players to its right.
8. Positions that cannot follow from the last hands (recorded positions that
   do not fit the players now seated, or a dead small blind with no earlier
   hand to place the button) put the button on the nearest regular to the
   right of the blinds, so every plan stays playable.

9. Tournament tables (``tournament=True``, RULES 8.2): an entrant (a player
   who arrived by late registration, balancing or a table breaking) is
   dealt in at once without posting, unless their seat is the small-blind
   position, the button's seat or lies between the two, where they wait for
   the button to pass; there is no choice to post (``wants_to_post_now`` is
   ignored). Heads-up (step 5) an entrant still waits for the big blind,
   which reaches them within two hands (RULES 8.11, 2.10).

Blind amounts, and short stacks that post all they have (RULES 2.8), are
the hand engine's concern: a seat planned for a blind posts it as it can.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .config import MAX_SEATS, MIN_SEATS


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatStatus:
    """One occupied seat, as the table layer sees it before a hand.

    ``sat_order``: lower means the player sat down earlier (RULES 2.1).
    ``ready``: seated with chips and not sitting out.
    ``waiting_for_big_blind``: an entrant (see the module docstring) who has
    not yet posted their way in.
    ``wants_to_post_now``: the entrant chose to post one big blind and play
    the next hand rather than wait (RULES 2.7, 2.11); ignored for a regular.
    """

    seat: int
    sat_order: int
    ready: bool = True
    waiting_for_big_blind: bool = False
    wants_to_post_now: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayedPositions:
    """The button and blinds of a hand already dealt, as its ``HandConfig`` recorded them.

    ``small_blind_seat`` is None when the small blind was dead.
    """

    button: int
    small_blind_seat: int | None
    big_blind_seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HandPositions:
    """The seats for one hand.

    ``small_blind_seat`` equals ``button`` heads-up, and is None when the
    small blind is dead (RULES 2.9). ``button`` may be a seat nobody is dealt
    in from (a dead button, ``has_dead_button``). ``dealt_in`` runs clockwise
    from the player left of the button, so it also is the dealing order
    (RULES 1.4) and ends with the button when the button is live.
    ``extra_big_blinds`` are entrants posting a big blind out of position
    (RULES 2.7, 2.11).
    """

    button: int
    small_blind_seat: int | None
    big_blind_seat: int
    dealt_in: tuple[int, ...]
    extra_big_blinds: tuple[int, ...]

    @property
    def has_dead_button(self) -> bool:
        return self.button not in self.dealt_in


def plan_next_hand(
    *,
    seat_count: int,
    previous: Sequence[PlayedPositions] = (),
    candidates: Sequence[SeatStatus],
    tournament: bool = False,
) -> HandPositions | None:
    """Plan the next hand, or return None if fewer than two can be dealt in.

    ``previous``: the table's latest hands, most recent first; empty for its
    first hand. The last one places the blinds; the one before it places the
    button after a dead small blind (further ones are not needed).
    ``candidates`` lists every occupied seat. ``tournament``: deal entrants
    in as RULES 8.2 says (step 9). Raises ``ValueError`` for impossible seat
    numbers.

    Four players at a 6-seat table; seat 1 sat first and has the button of
    the first hand (RULES 2.1, 2.3):

    >>> seated = [SeatStatus(seat=seat, sat_order=seat) for seat in (1, 2, 3, 4)]
    >>> plan_next_hand(seat_count=6, candidates=seated)
    HandPositions(button=1, small_blind_seat=2, big_blind_seat=3, dealt_in=(2, 3, 4, 1), extra_big_blinds=())

    Seat 3, that hand's big blind, leaves (RULES 2.9). The big blind moves
    on to seat 4; the small blind would be seat 3's, so it is dead; the
    button goes to seat 2, where the small blind was:

    >>> first = PlayedPositions(button=1, small_blind_seat=2, big_blind_seat=3)
    >>> staying = [status for status in seated if status.seat != 3]
    >>> plan_next_hand(seat_count=6, previous=[first], candidates=staying)
    HandPositions(button=2, small_blind_seat=None, big_blind_seat=4, dealt_in=(4, 1, 2), extra_big_blinds=())

    The hand after: seat 4 posts the small blind, seat 1 the big blind, and
    the button is dead on the empty seat 3, where the small blind would have
    been, so seat 2 acts last:

    >>> second = PlayedPositions(button=2, small_blind_seat=None, big_blind_seat=4)
    >>> third = plan_next_hand(seat_count=6, previous=[second, first], candidates=staying)
    >>> third.button, third.small_blind_seat, third.big_blind_seat, third.has_dead_button
    (3, 4, 1, True)
    """
    _check_seats(seat_count, previous, candidates)
    ready = [status for status in candidates if status.ready]
    if len(ready) < 2:
        return None
    clock = _Clock(seat_count)
    if not previous:
        return _plan_first_hand(clock, ready)
    regulars = [status.seat for status in ready if not status.waiting_for_big_blind]
    if len(regulars) < 2:
        return _plan_new_game(clock, previous[0], [status.seat for status in ready])
    if tournament:
        ready = [replace(status, wants_to_post_now=False) for status in ready]
    plan = _plan_running_game(clock, previous, ready, regulars)
    if tournament and plan.small_blind_seat != plan.button:
        return _deal_in_arrivals(clock, previous[0], plan, ready)
    return plan


def _deal_in_arrivals(
    clock: "_Clock", last: PlayedPositions, plan: HandPositions, ready: list[SeatStatus]
) -> HandPositions:
    """Step 9 (RULES 8.2): entrants outside the button..small-blind stretch play at once, unposted."""
    small_blind_position = last.big_blind_seat
    arrivals = [
        status.seat
        for status in ready
        if status.waiting_for_big_blind
        and status.seat not in plan.dealt_in
        and status.seat not in (plan.button, small_blind_position)
        and not clock.is_between(status.seat, start=plan.button, end=small_blind_position)
    ]
    if not arrivals:
        return plan
    return replace(plan, dealt_in=clock.order_from({*plan.dealt_in, *arrivals}, after=plan.button))


def _plan_first_hand(clock: "_Clock", ready: list[SeatStatus]) -> HandPositions:
    """RULES 2.1: the first player to sit has the button."""
    button = min(ready, key=lambda status: (status.sat_order, status.seat)).seat
    dealt_in = clock.order_from((status.seat for status in ready), after=button)
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


def _plan_new_game(clock: "_Clock", last: PlayedPositions, seats: list[int]) -> HandPositions:
    """Step 7: nobody is waiting for a game that is not running; the big blind still moves on."""
    big_blind = clock.next_of(seats, after=last.big_blind_seat)
    if len(seats) == 2:
        small_blind = button = clock.next_of(seats, after=big_blind)
    else:
        small_blind = clock.previous_of(seats, before=big_blind)
        button = clock.previous_of(seats, before=small_blind)
    return HandPositions(
        button=button,
        small_blind_seat=small_blind,
        big_blind_seat=big_blind,
        dealt_in=clock.order_from(seats, after=button),
        extra_big_blinds=(),
    )


def _plan_running_game(
    clock: "_Clock",
    previous: Sequence[PlayedPositions],
    ready: list[SeatStatus],
    regulars: list[int],
) -> HandPositions:
    last = previous[0]
    big_blind = clock.next_of([status.seat for status in ready], after=last.big_blind_seat)
    if big_blind in regulars and len(regulars) == 2:
        # Step 5, heads-up: the other regular has the button and posts the small blind.
        heads_up_button = clock.next_of(regulars, after=big_blind)
        return HandPositions(
            button=heads_up_button,
            small_blind_seat=heads_up_button,
            big_blind_seat=big_blind,
            dealt_in=clock.order_from(regulars, after=heads_up_button),
            extra_big_blinds=(),
        )

    small_blind = last.big_blind_seat if last.big_blind_seat in regulars else None
    button = _small_blind_position(clock, last, previous[1] if len(previous) > 1 else None)
    if button is None or not _fits(clock, button, small_blind, big_blind, regulars):
        first_blind = big_blind if small_blind is None else small_blind
        button = clock.previous_of(
            [seat for seat in regulars if seat not in (small_blind, big_blind)], before=first_blind
        )
    posting_now = [
        status.seat
        for status in ready
        if status.waiting_for_big_blind
        and status.wants_to_post_now
        and status.seat not in (big_blind, button)
        and not clock.is_between(status.seat, start=button, end=big_blind)
    ]
    dealt_in = {*regulars, *posting_now, big_blind}
    return HandPositions(
        button=button,
        small_blind_seat=small_blind,
        big_blind_seat=big_blind,
        dealt_in=clock.order_from(dealt_in, after=button),
        extra_big_blinds=clock.order_from(posting_now, after=button),
    )


def _small_blind_position(clock: "_Clock", last: PlayedPositions, before_last: PlayedPositions | None) -> int | None:
    """Where the last hand's small blind was posted, or would have been (step 4)."""
    if last.small_blind_seat is not None:
        return last.small_blind_seat
    return None if before_last is None else before_last.big_blind_seat


def _fits(clock: "_Clock", button: int, small_blind: int | None, big_blind: int, regulars: list[int]) -> bool:
    """Whether the button lies right of the blinds, with no other regular in between."""
    if button in (small_blind, big_blind):
        return False
    if small_blind is not None and not clock.is_between(small_blind, start=button, end=big_blind):
        return False
    return not any(clock.is_between(seat, start=button, end=big_blind) for seat in regulars if seat != small_blind)


@dataclass(frozen=True, slots=True)
class _Clock:
    """Clockwise arithmetic on seats 1..seat_count."""

    seat_count: int

    def distance(self, start: int, end: int) -> int:
        """Seats to move clockwise from ``start`` to reach ``end`` (0..N-1)."""
        return (end - start) % self.seat_count

    def next_of(self, seats: Iterable[int], *, after: int) -> int:
        """The first of ``seats`` clockwise after seat ``after``, never itself."""
        others = [seat for seat in seats if seat != after]
        return min(others, key=lambda seat: self.distance(after, seat))

    def previous_of(self, seats: Iterable[int], *, before: int) -> int:
        """The first of ``seats`` counter-clockwise before seat ``before``, never itself."""
        others = [seat for seat in seats if seat != before]
        return min(others, key=lambda seat: self.distance(seat, before))

    def is_between(self, seat: int, *, start: int, end: int) -> bool:
        """Whether ``seat`` lies strictly between ``start`` and ``end`` clockwise."""
        return 0 < self.distance(start, seat) < self.distance(start, end)

    def order_from(self, seats: Iterable[int], *, after: int) -> tuple[int, ...]:
        """``seats`` in clockwise order starting left of seat ``after``."""
        return tuple(sorted(seats, key=lambda seat: self.distance(after + 1, seat)))


def _check_seats(seat_count: int, previous: Sequence[PlayedPositions], candidates: Sequence[SeatStatus]) -> None:
    if not MIN_SEATS <= seat_count <= MAX_SEATS:
        raise ValueError(f"A table has {MIN_SEATS} to {MAX_SEATS} seats; got {seat_count}.")
    seats = [status.seat for status in candidates]
    for played in previous[:2]:
        seats += [played.button, played.big_blind_seat]
        if played.small_blind_seat is not None:
            seats.append(played.small_blind_seat)
    if any(not 1 <= seat <= seat_count for seat in seats):
        raise ValueError(f"Seats are numbered 1 to {seat_count}; got {sorted(seats)}.")
    if len({status.seat for status in candidates}) != len(candidates):
        raise ValueError("Each seat may appear only once among the candidates.")
