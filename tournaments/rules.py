"""Tournament rules that need no database: payouts, finishing places, balancing and breaking
(RULES 8.6-8.10), and the default blind schedules. Pure functions, checked by mypy --strict,
so the services only lock, persist and move chips around them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# --- blind schedules ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """One blind level: Pot Limit small/big blind, or Limit small/big bet (the big blind is the
    small bet, the small blind half of it); ``ante``: the big blind ante (RULES 8.4)."""

    small: int
    big: int
    ante: int = 0
    minutes: int = 10


# Pot Limit: small blind / big blind, the ante from level 5 (a big blind ante of one big blind).
DEFAULT_POT_LIMIT: tuple[Level, ...] = tuple(
    Level(small, 2 * small, 2 * small if number >= 5 else 0)
    for number, small in enumerate((10, 15, 25, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000), start=1)
)
# Limit: small bet / big bet; the ante from level 5 as well (one small bet).
DEFAULT_LIMIT: tuple[Level, ...] = tuple(
    Level(small, 2 * small, small if number >= 5 else 0)
    for number, small in enumerate(
        (20, 30, 50, 100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000, 3000, 4000), start=1
    )
)


def default_schedule(variant: str) -> tuple[Level, ...]:
    return DEFAULT_LIMIT if variant == "limit" else DEFAULT_POT_LIMIT


# --- payouts (RULES 8.10) ---------------------------------------------------------------


MAX_PLACES_PAID = 50  # whole percents: at least 1 % a place


def default_payout_percentages(entries: int) -> tuple[int, ...]:
    """The percentages of the prize pool per place, best first, for ``entries`` entries:
    2-3 winner takes all, 4-6 65/35, 7-10 50/30/20, larger fields the top 15 % (at least 4
    places, at most 50) on a harmonic curve (place k gets about 1/k of the winner's share):
    whole percents, at least 1 each, never more than the place above, summing to 100.

    >>> default_payout_percentages(3), default_payout_percentages(5), default_payout_percentages(9)
    ((100,), (65, 35), (50, 30, 20))
    >>> default_payout_percentages(20)
    (48, 24, 16, 12)
    """
    if entries <= 3:
        return (100,)
    if entries <= 6:
        return (65, 35)
    if entries <= 10:
        return (50, 30, 20)
    paid = min(MAX_PLACES_PAID, max(4, math.ceil(entries * 0.15)))
    weights = [1 / place for place in range(1, paid + 1)]
    total = sum(weights)
    rest = 100 - paid
    # Floors of non-increasing weights never increase; the chips they leave go to the winner.
    percents = [1 + math.floor(rest * weight / total) for weight in weights]
    percents[0] += 100 - sum(percents)
    return tuple(percents)


def payout_percentages(entries: int, table: Sequence[Mapping[str, object]] | None = None) -> tuple[int, ...]:
    """The percentages for ``entries`` from a payout table: rows ``{"max_entries": N,
    "percentages": [..]}`` in rising order; the first row whose ``max_entries`` covers the field.
    Without a table, or past its last row, the defaults."""
    for row in table or ():
        max_entries = row.get("max_entries")
        percentages = row.get("percentages")
        if isinstance(max_entries, int) and isinstance(percentages, list) and entries <= max_entries:
            return tuple(int(p) for p in percentages)
    return default_payout_percentages(entries)


def check_payout_table(table: object) -> str | None:
    """Why a payout table is not usable, or None."""
    if not isinstance(table, list):
        return "The payout table is a list of rows."
    previous = 0
    for row in table:
        if not isinstance(row, dict) or set(row) != {"max_entries", "percentages"}:
            return 'Each row is {"max_entries": N, "percentages": [..]}.'
        max_entries, percentages = row["max_entries"], row["percentages"]
        if not isinstance(max_entries, int) or max_entries <= previous:
            return "max_entries must be whole numbers in rising order."
        if not isinstance(percentages, list) or not percentages or not all(isinstance(p, int) for p in percentages):
            return "percentages must be a list of whole percents."
        if sum(percentages) != 100 or any(p <= 0 for p in percentages):
            return "The percentages of a row must be positive and sum to 100."
        if list(percentages) != sorted(percentages, reverse=True):
            return "A place never pays more than the place above it."
        if len(percentages) > max_entries:
            return "A row cannot pay more places than it has entries."
        previous = max_entries
    return None


def prize_amounts(pool: int, percentages: Sequence[int]) -> list[int]:
    """Whole-chip prizes per place, best first; the remainder goes to the highest place (RULES 8.10).

    >>> prize_amounts(1001, (50, 30, 20))
    [501, 300, 200]
    """
    amounts = [pool * percent // 100 for percent in percentages]
    if amounts:
        amounts[0] += pool - sum(amounts)
    return amounts


# --- finishing places (RULES 8.6, 8.9) --------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bust:
    """A player eliminated: their stack when the hand started (RULES 8.6); ``order``: their
    position for the odd chips of shared prizes, 0 = first to the left of the button (RULES
    8.6), or the random draw across tables (RULES 8.9)."""

    player: int
    starting_stack: int
    order: int = 0


@dataclass(frozen=True, slots=True)
class Placed:
    player: int
    place: int  # the best place of the places tied for
    prize: int


def place_busts(busts: Sequence[Bust], remaining: int, prizes: Sequence[int]) -> list[Placed]:
    """Finishing places for the players eliminated together when ``remaining`` players (them
    included) were left: more chips at the start of the hand place higher; equal stacks tie and
    share equally the prizes of the places they tie for, the odd chips one each in ``order``
    (RULES 8.6). ``prizes``: the prize of each place, best first (places past it pay nothing).

    Two players bust with 4 left; the bigger stack takes 3rd, the other 4th:

    >>> place_busts([Bust(7, 100), Bust(8, 300)], 4, [60, 30, 10])
    [Placed(player=8, place=3, prize=10), Placed(player=7, place=4, prize=0)]

    Equal stacks tie for 2nd and 3rd and share 30 + 10, 20 each:

    >>> place_busts([Bust(7, 100, 1), Bust(8, 100, 0)], 3, [60, 30, 10])
    [Placed(player=8, place=2, prize=20), Placed(player=7, place=2, prize=20)]
    """
    ordered = sorted(busts, key=lambda bust: (-bust.starting_stack, bust.order))
    result: list[Placed] = []
    place = remaining - len(busts) + 1
    k = 0
    while k < len(ordered):
        tied = [bust for bust in ordered[k:] if bust.starting_stack == ordered[k].starting_stack]
        shared = sum(prize_of(prizes, place + j) for j in range(len(tied)))
        share, odd = divmod(shared, len(tied))
        for j, bust in enumerate(sorted(tied, key=lambda bust: bust.order)):
            result.append(Placed(bust.player, place, share + (1 if j < odd else 0)))
        place += len(tied)
        k += len(tied)
    return result


def prize_of(prizes: Sequence[int], place: int) -> int:
    return prizes[place - 1] if 1 <= place <= len(prizes) else 0


# --- balancing and breaking (RULES 8.7, 8.8) ----------------------------------------------


def tables_needed(players: int, seats_per_table: int) -> int:
    return max(1, math.ceil(players / seats_per_table))


def initial_tables(players: int, seats_per_table: int) -> list[int]:
    """How many players start at each table: as even as can be (RULES 8.7 from the first hand)."""
    count = tables_needed(players, seats_per_table)
    base, extra = divmod(players, count)
    return [base + (1 if k < extra else 0) for k in range(count)]


def balancing_move(counts: Mapping[int, int]) -> tuple[int, int] | None:
    """(from table, to table) while the fullest table has at least two players more than the
    shortest (RULES 8.7), else None. Ties: the lowest table id, so the choice is fixed."""
    if len(counts) < 2:
        return None
    fullest = max(sorted(counts), key=lambda table: counts[table])
    shortest = min(sorted(counts), key=lambda table: counts[table])
    if counts[fullest] - counts[shortest] < 2:
        return None
    return fullest, shortest


def table_to_break(counts: Mapping[int, int], break_order: Sequence[int], seats_per_table: int) -> int | None:
    """The table to break now, if the players fit on one table fewer (RULES 8.8): the first of
    ``break_order`` (fixed when the tournament started) still playing."""
    playing = [table for table in break_order if table in counts]
    if len(playing) < 2:
        return None
    if sum(counts.values()) > (len(playing) - 1) * seats_per_table:
        return None
    return playing[0]


def next_big_blind(occupied: Sequence[int], last_big_blind: int | None, seat_count: int) -> int:
    """The occupied seat that posts the next big blind: the first clockwise after the last big
    blind (RULES 2.9); with no hand played yet, the lowest seat."""
    if last_big_blind is None:
        return min(occupied)
    return min(occupied, key=lambda seat: (seat - last_big_blind - 1) % seat_count)


def worst_free_seat(free: Sequence[int], occupied: Sequence[int], last_big_blind: int | None, seat_count: int) -> int:
    """The free seat that will post the big blind soonest (RULES 8.7): the first free seat
    clockwise after the last big blind (at once if no player sits between them)."""
    if last_big_blind is None:
        return min(free)
    return min(free, key=lambda seat: (seat - last_big_blind - 1) % seat_count)
