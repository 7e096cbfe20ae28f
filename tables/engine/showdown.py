"""Showdown: who shows, who mucks, who wins each pot (RULES 5.4, 5.5).

Winners are decided with ``omaha_strength`` (fast); ``evaluate_omaha``
(which names the five cards) runs only for hands actually shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import events as ev
from .evaluator import evaluate_omaha, omaha_strength
from .pots import PotAward, split_pot


def showdown_order(live_clockwise: Sequence[int], last_aggressor: int | None) -> list[int]:
    """The order hands are shown in (RULES 5.4).

    ``live_clockwise``: the players still in, clockwise from the first left
    of the button. The last player to bet or raise in the last betting
    round shows first; with no bet, the first player left of the button;
    then the others clockwise.
    """
    if last_aggressor is None or last_aggressor not in live_clockwise:
        return list(live_clockwise)
    start = live_clockwise.index(last_aggressor)
    return [*live_clockwise[start:], *live_clockwise[:start]]


def settle_showdown(
    *,
    seats: Sequence[int],
    holes: Sequence[tuple[int, ...]],
    board: Sequence[int],
    order: Sequence[int],
    pots: Sequence[tuple[int, list[int]]],
    turn_all_up: bool,
    clockwise_rank: Sequence[int],
) -> tuple[list[ev.Event], list[PotAward], list[int]]:
    """Show or muck in ``order``, then pay every pot.

    Returns the show/muck/pot events, the awards, and the chips won per
    player index. ``pots`` holds (amount, eligible indices);
    ``clockwise_rank[i]`` is player i's distance clockwise from the first
    seat left of the button, which orders tied winners for odd chips.

    Auto-muck (RULES 5.4: showing is optional for a hand that cannot win):
    a player shows only if their hand can win or tie a contested pot they
    are eligible for, given the hands already shown; otherwise they muck
    and win nothing from contested pots. With ``turn_all_up`` (all-in, no
    more betting possible) every hand is shown. A pot with a single eligible
    player is theirs without a showdown.
    """
    strengths = {i: omaha_strength(holes[i], board) for i in order}
    contested = [len(eligible) > 1 for _, eligible in pots]
    best_shown = [-1] * len(pots)
    shown: set[int] = set()
    events: list[ev.Event] = []
    for i in order:
        strength = strengths[i]
        contests = [k for k, (_, eligible) in enumerate(pots) if contested[k] and i in eligible]
        if turn_all_up or any(strength >= best_shown[k] for k in contests):
            for k in contests:
                if strength > best_shown[k]:
                    best_shown[k] = strength
            shown.add(i)
            value = evaluate_omaha(holes[i], board)
            events.append(ev.hand_shown(seats[i], ev.card_texts(holes[i]), value.category, ev.card_texts(value.cards)))
        else:
            events.append(ev.hand_mucked(seats[i]))

    winnings = [0] * len(seats)
    awards: list[PotAward] = []
    for k, (amount, eligible) in enumerate(pots):
        if contested[k]:
            winners = [i for i in eligible if i in shown and strengths[i] == best_shown[k]]
        else:
            winners = list(eligible)
        winners.sort(key=clockwise_rank.__getitem__)
        shares = split_pot(amount, winners)
        for i, chips in shares:
            winnings[i] += chips
        award = PotAward(
            pot_index=k,
            amount=amount,
            eligible=tuple(seats[i] for i in eligible),
            winners=tuple((seats[i], chips) for i, chips in shares),
        )
        awards.append(award)
        events.append(ev.pot_awarded(k, amount, list(award.eligible), list(award.winners)))
    return events, awards, winnings
