"""Main and side pots by contribution levels (RULES 4.1, 4.2) and what they paid.

Work is done on player indices (positions in clockwise order) for speed;
the hand turns them into seat numbers for its public ``Pot``/``PotAward``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Pot:
    """Chips in the middle and the seats that can win them."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


@dataclass(frozen=True, slots=True)
class PotAward:
    """How one pot was paid: ``winners`` holds (seat, chips) pairs."""

    pot_index: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "pot_index": self.pot_index,
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": [{"seat": seat, "amount": amount} for seat, amount in self.winners],
        }


def layer_pots(
    contributed: Sequence[int],
    in_hand: Sequence[bool],
    capped: Sequence[bool],
) -> list[tuple[int, list[int]]]:
    """Split the chips put in into (amount, eligible indices) pots, main pot first.

    ``in_hand``: not folded. ``capped``: in the hand but unable to put in
    more (all-in, or protected after a timeout): each capped contribution is
    a level, and a capped player can win only the pots up to their level
    (RULES 4.1). Players still able to bet can win every pot: they will
    match any bet or fold. Folded players' chips stay in the pots, but they
    are never eligible. Empty layers are skipped.

    Player 0 is all-in for 20, players 1 and 2 put in 50 each and player 3
    folded after putting in 10. The main pot holds 20 from each of the first
    three and the folded 10; the 30 more from players 1 and 2 make a side
    pot player 0 cannot win (RULES 4.1, 4.2):

    >>> layer_pots([20, 50, 50, 10], in_hand=[True, True, True, False], capped=[True, False, False, False])
    [(70, [0, 1, 2]), (60, [1, 2])]

    Two all-ins at different levels make two side pots; the players who can
    still bet are eligible for all of them:

    >>> layer_pots([10, 30, 60, 60], in_hand=[True] * 4, capped=[True, True, False, False])
    [(40, [0, 1, 2, 3]), (60, [1, 2, 3]), (60, [2, 3])]
    """
    count = len(contributed)
    top = max(contributed)
    levels = sorted({contributed[i] for i in range(count) if capped[i] and 0 < contributed[i] < top})
    levels.append(top)
    pots: list[tuple[int, list[int]]] = []
    previous = 0
    for level in levels:
        amount = 0
        for chips in contributed:
            if chips > previous:
                amount += (chips if chips < level else level) - previous
        eligible = [i for i in range(count) if in_hand[i] and (not capped[i] or contributed[i] >= level)]
        if eligible:
            if amount:
                pots.append((amount, eligible))
        elif pots:
            # Only folded chips lie this high: they belong to the pot below.
            below_amount, below_eligible = pots[-1]
            pots[-1] = (below_amount + amount, below_eligible)
        previous = level
    return pots


def split_pot(amount: int, winners_from_button: Sequence[int]) -> list[tuple[int, int]]:
    """Share ``amount`` equally; returns (index, chips) for each winner.

    ``winners_from_button`` lists the tied winners clockwise starting left of
    the button. The odd chips that cannot be split go one at a time to the
    first of them (RULES 5.5: "the first tied winner left of the button";
    with several odd chips we continue clockwise, one chip each, as most
    card rooms do, rather than give them all to one player).
    """
    share, odd_chips = divmod(amount, len(winners_from_button))
    return [(index, share + 1 if position < odd_chips else share) for position, index in enumerate(winners_from_button)]
