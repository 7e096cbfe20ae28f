"""The betting vocabulary and the sizing rules of Limit and Pot Limit.

``ActionKind``/``Action`` are what a player sends, ``LegalActions`` what
they may send now. ``LimitRound`` and ``PotLimitRound`` hold the sizing
state of one betting round; the hand state machine (``hand.py``) decides who
acts and moves the chips.

All amounts are "raise to" totals: the player's bet in this round after the
action, never the increment.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, NamedTuple

# RULES 3.5: a bet and three raises; pre-flop the big blind is the bet.
LIMIT_MAX_BETS_PER_ROUND = 4


class Street(StrEnum):
    """The four betting rounds (RULES 3.1), in order."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


STREETS = tuple(Street)


class ActionKind(StrEnum):
    """What a player may do (RULES 3.3); TIMEOUT is sent by the table's clock (RULES 6.2)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    TIMEOUT = "timeout"


# What a player's own choice is, as an event records it: a timeout is an event of its own.
PlayedKind = Literal[ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE]
WagerKind = Literal[ActionKind.BET, ActionKind.RAISE]


class PlayerStatus(StrEnum):
    """Where a player stands in the hand.

    ACTIVE players can still act; ALL_IN and PROTECTED (timed out with chips in
    the pot, RULES 6.2) stay in the hand but act no more; FOLDED players are out.
    """

    ACTIVE = "active"
    ALL_IN = "all_in"
    PROTECTED = "protected"
    FOLDED = "folded"


class _ActionFields(NamedTuple):
    seat: int
    kind: ActionKind
    amount: int | None


class Action(_ActionFields):
    """One player action. ``amount`` is the "raise to" total, for BET and RAISE only.

    ``kind`` may be given as its text ("fold"). An immutable tuple: one is
    built for every click, so it is kept as cheap as Python allows.
    """

    __slots__ = ()

    def __new__(cls, seat: int, kind: ActionKind | str, amount: int | None = None) -> Action:
        if type(kind) is not ActionKind:
            kind = ActionKind(kind)
        return tuple.__new__(cls, (seat, kind, amount))

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind.value, "amount": self.amount}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        return cls(data["seat"], ActionKind(data["kind"]), data.get("amount"))


class LegalActions(NamedTuple):
    """What the seat to act may do now.

    ``call_amount``: chips a call puts in (capped by the stack, so a call
    may be all-in); 0 when checking is possible.
    ``bet_kind``: ``ActionKind.BET``, ``ActionKind.RAISE`` or None when no bet or raise is allowed
    (capped, a short all-in that does not reopen, no chips beyond the call,
    or nobody left who could answer).
    ``min_to``/``max_to``: the allowed "raise to" totals, inclusive; equal in
    Limit; both the all-in total when the stack cannot reach the minimum.
    (A NamedTuple: built on every turn, it is the cheapest immutable record.)
    """

    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int
    bet_kind: WagerKind | None
    min_to: int | None
    max_to: int | None

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


class LimitRound:
    """Fixed Limit sizing for one round (RULES 3.5, 3.7).

    A bet or raise is one ``bet_size`` above ``full_level``, the bet level
    set by the last full bet or raise. An all-in that raises ``full_level``
    by at least half a bet counts as a full raise (Robert's Rules' half-bet
    rule, cumulative over several all-ins); a smaller one does not, and the
    next player may "complete" it to a full bet over ``full_level``.
    """

    __slots__ = ("bet_size", "bets_made", "capped", "current_bet", "full_level")

    def __init__(self, bet_size: int, opening_bet: int) -> None:
        self.bet_size = bet_size
        self.current_bet = opening_bet
        self.full_level = opening_bet
        # Pre-flop the big blind is the opening bet and counts toward the cap.
        self.bets_made = 1 if opening_bet else 0
        self.capped = False

    def reopens_for(self, to_call: int) -> bool:
        """Whether a player who already acted, now facing ``to_call`` more, may raise.

        Only if what they face since their last action amounts to a full
        raise, which in Limit means at least half a bet (RULES 3.7).
        """
        return 2 * to_call >= self.bet_size

    def bounds(self, my_bet: int, all_in_to: int, pot: int) -> tuple[int, int]:
        """The (min, max) "raise to" totals; the pot does not matter in Limit."""
        target = self.full_level + self.bet_size
        if all_in_to < target:
            target = all_in_to
        return target, target

    def record_wager(self, total: int) -> None:
        """Account for a bet or raise to ``total`` (above the current bet)."""
        if 2 * (total - self.full_level) >= self.bet_size:
            self.full_level = total
            self.bets_made += 1
            self.capped = self.bets_made >= LIMIT_MAX_BETS_PER_ROUND
        self.current_bet = total

    def to_dict(self) -> dict[str, Any]:
        return {
            "current_bet": self.current_bet,
            "full_level": self.full_level,
            "bets_made": self.bets_made,
        }


class PotLimitRound:
    """Pot Limit sizing for one round (RULES 3.6, 3.7).

    The smallest bet is the big blind; the smallest raise adds the last full
    bet or raise of the round (pre-flop the big blind counts as the opening
    bet). The largest is a pot-size raise: call, then raise by the pot as it
    stands after the call. An all-in below a full raise changes neither.
    """

    __slots__ = ("current_bet", "min_raise")

    capped = False  # Pot Limit has no cap on the number of raises.

    def __init__(self, big_blind: int, opening_bet: int) -> None:
        self.current_bet = opening_bet
        self.min_raise = big_blind

    def reopens_for(self, to_call: int) -> bool:
        """Whether a player who already acted, now facing ``to_call`` more, may raise.

        Only if what they face since their last action is at least a full
        raise (TDA: several short all-ins together can make one).
        """
        return to_call >= self.min_raise

    def bounds(self, my_bet: int, all_in_to: int, pot: int) -> tuple[int, int]:
        """The (min, max) "raise to" totals (RULES 3.6).

        ``pot`` counts every chip in the middle and every bet in front of players.
        The most is a call and then a raise by the pot after that call; the
        least adds the last full bet or raise (the big blind to open).

        Pot Limit 1/2, pre-flop: the first to act faces the big blind, with 3
        in the pot, and may raise to 4 up to 7 (call 2, then raise by 5):

        >>> preflop = PotLimitRound(big_blind=2, opening_bet=2)
        >>> preflop.bounds(my_bet=0, all_in_to=200, pot=3)
        (4, 7)

        After a raise to 7 the small blind, with 1 in, may re-raise by at
        least that raise of 5, to 12, and at most to 23: calling 6 makes the
        pot 16, and 7 + 16 = 23.

        >>> preflop.record_wager(7)
        >>> preflop.bounds(my_bet=1, all_in_to=200, pot=10)
        (12, 23)

        A stack short of the minimum raise may only go all-in (RULES 3.7):

        >>> preflop.bounds(my_bet=1, all_in_to=10, pot=10)
        (10, 10)
        """
        current = self.current_bet
        low = current + self.min_raise
        # current bet + (pot + all bets on the table + the amount to call)
        high = 2 * current - my_bet + pot
        if high < low:
            high = low
        if all_in_to < high:
            high = all_in_to
            if all_in_to < low:
                low = all_in_to
        return low, high

    def record_wager(self, total: int) -> None:
        """Account for a bet or raise to ``total`` (above the current bet)."""
        increment = total - self.current_bet
        if increment >= self.min_raise:
            self.min_raise = increment
        self.current_bet = total

    def to_dict(self) -> dict[str, Any]:
        return {"current_bet": self.current_bet, "min_raise": self.min_raise}


def away_action(legal: LegalActions) -> Action:
    """What an away player does at once when their turn comes (RULES 8.5): check if they
    can, fold otherwise. The table layer plays it for a tournament player who timed out
    and has not acted since."""
    return Action(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.FOLD)
