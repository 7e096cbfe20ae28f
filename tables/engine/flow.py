"""The mechanics of a hand: posting, dealing, turns, rounds and settlement.

State lives in plain lists indexed by player position (0..n-1 clockwise,
ascending seat numbers) so an action costs a few list operations; seat
numbers appear only in events and at the public surface (``hand.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import events as ev
from .betting import STREETS, Action, LimitRound, PlayerStatus, PotLimitRound, Street
from .config import HandConfig, Variant
from .deck import validate_deck
from .pots import PotAward, layer_pots
from .showdown import settle_showdown, showdown_order

# The statuses under plain module names: the hot path compares them by
# identity, and a lookup on the enum class costs several times a global's.
ACTIVE: Final = PlayerStatus.ACTIVE
ALL_IN: Final = PlayerStatus.ALL_IN
PROTECTED: Final = PlayerStatus.PROTECTED
FOLDED: Final = PlayerStatus.FOLDED

RIVER_INDEX = len(STREETS) - 1
DEALT_STREETS: tuple[ev.DealtStreet, ...] = (Street.FLOP, Street.TURN, Street.RIVER)


class HandFlow:
    """The state of a hand and the mechanics that move it along.

    ``Hand`` adds the public, rules-checked interface on top: everything
    here assumes the action it follows was already validated.
    """

    __slots__ = (
        "_acted",
        "_actions",
        "_active_count",
        "_ante",
        "_ante_index",
        "_awards",
        "_bets",
        "_board",
        "_button_index",
        "_collected",
        "_contributed",
        "_deck",
        "_events",
        "_holes",
        "_last_aggressor",
        "_live_count",
        "_next_card",
        "_over",
        "_round",
        "_round_total",
        "_seats",
        "_stacks",
        "_started",
        "_starting_stacks",
        "_status",
        "_street_index",
        "_to_act",
        "config",
    )  # fmt: skip

    def __init__(self, config: HandConfig, deck: Sequence[int]) -> None:
        validate_deck(deck)
        setups = sorted(config.seats, key=lambda setup: setup.seat)
        count = len(setups)
        self.config = config
        self._deck = tuple(deck)
        self._seats = [setup.seat for setup in setups]
        self._starting_stacks = tuple(setup.stack for setup in setups)
        self._stacks = list(self._starting_stacks)
        self._bets = [0] * count
        self._contributed = [0] * count
        self._status: list[PlayerStatus] = [ACTIVE] * count
        self._acted = [False] * count
        self._holes: list[tuple[int, ...]] = [()] * count
        self._board: list[int] = []
        self._street_index = 0
        self._round: LimitRound | PotLimitRound = self._new_round()
        self._to_act: int | None = None
        self._active_count = count
        self._live_count = count
        self._collected = 0  # chips in the middle from finished rounds and antes
        self._ante = 0  # the big blind ante posted: dead money in the main pot (RULES 8.4)
        self._ante_index = 0
        self._round_total = 0  # chips bet in the current round
        below = [i for i, seat in enumerate(self._seats) if seat <= config.button]
        # A dead button (no player on it) sits just after the last seat below it.
        self._button_index = below[-1] if below else count - 1
        self._next_card = 0
        self._last_aggressor: int | None = None
        self._actions: list[Action] = []
        self._events: list[ev.Event] = []
        self._started = False
        self._over = False
        self._awards: list[PotAward] = []

    # ----------------------------------------------------------- turns and rounds

    def _advance(self, after: int, events: list[ev.Event]) -> None:
        """Give the turn to the next player, or close the round or the hand."""
        if self._live_count == 1:
            self._win_uncontested(events)
            return
        following = self._next_actor(after)
        if following is None:
            self._end_round(events)
        else:
            self._to_act = following

    def _next_actor(self, after: int) -> int | None:
        """The first player clockwise after ``after`` who still owes an action (RULES 3.4)."""
        status = self._status
        acted = self._acted
        bets = self._bets
        current = self._round.current_bet
        count = len(status)
        i = after
        for _ in range(count):
            i = i + 1 if i + 1 < count else 0
            if status[i] is ACTIVE and (not acted[i] or bets[i] < current):
                if self._active_count == 1 and bets[i] >= max(bet for k, bet in enumerate(bets) if k != i):
                    return None  # alone with chips and nothing to call: no one to bet against
                return i
        return None

    def _end_round(self, events: list[ev.Event]) -> None:
        self._to_act = None
        self._collect_bets(events)
        if self._street_index < RIVER_INDEX and self._active_count <= 1:
            # All-in with no more betting possible: hands up, run the board (RULES 5.4).
            events.append(
                ev.hands_turned_up(
                    [
                        {"seat": self._seats[i], "cards": ev.card_texts(self._holes[i])}
                        for i in self._clockwise()
                        if self._status[i] is not FOLDED
                    ]
                )
            )
            while self._street_index < RIVER_INDEX:
                self._deal_street(events)
        if self._street_index == RIVER_INDEX:
            self._showdown(events)
            return
        self._deal_street(events)
        self._round = self._new_round()
        self._acted = [False] * len(self._acted)
        self._last_aggressor = None
        self._to_act = self._next_actor(self._button_index)  # RULES 3.2: left of the button

    def _new_round(self) -> LimitRound | PotLimitRound:
        config = self.config
        # Pre-flop the big blind is the opening bet (RULES 2.6, 3.5, 3.6).
        opening_bet = config.big_blind if self._street_index == 0 else 0
        if config.variant is Variant.LIMIT:
            bet_size = config.big_blind if self._street_index < 2 else config.big_bet
            return LimitRound(bet_size, opening_bet)
        return PotLimitRound(config.big_blind, opening_bet)

    def _collect_bets(self, events: list[ev.Event]) -> None:
        """Return the uncalled part of the top bet (RULES 3.9) and move the bets to the pot."""
        bets = self._bets
        top = 0
        top_bet = second_bet = 0
        for i, bet in enumerate(bets):
            if bet > top_bet:
                top, top_bet, second_bet = i, bet, top_bet
            elif bet > second_bet:
                second_bet = bet
        uncalled = top_bet - second_bet
        if uncalled:
            self._stacks[top] += uncalled
            self._contributed[top] -= uncalled
            self._round_total -= uncalled
            if self._status[top] is ALL_IN:
                self._status[top] = ACTIVE
                self._active_count += 1
            events.append(ev.uncalled_bet_returned(self._seats[top], uncalled))
        self._collected += self._round_total
        self._round_total = 0
        self._bets = [0] * len(bets)

    def _deal_street(self, events: list[ev.Event]) -> None:
        """Burn one card, then deal the flop, turn or river (RULES 1.4)."""
        self._street_index += 1
        first = self._next_card + 1
        last = first + (3 if self._street_index == 1 else 1)
        cards = self._deck[first:last]
        self._board.extend(cards)
        self._next_card = last
        street = DEALT_STREETS[self._street_index - 1]
        events.append(ev.street_dealt(street, ev.card_texts(cards), ev.card_texts(self._board)))

    def _deal_hole_cards(self, events: list[ev.Event]) -> None:
        """Four cards each, one at a time, starting left of the button (RULES 1.4)."""
        deck = self._deck
        order = self._clockwise()
        count = len(order)
        for k, i in enumerate(order):
            hole = (deck[k], deck[k + count], deck[k + 2 * count], deck[k + 3 * count])
            self._holes[i] = hole
            events.append(ev.hole_cards_dealt(self._seats[i], ev.card_texts(hole)))
        self._next_card = 4 * count

    def _post(self, i: int, amount: int, blind: ev.BlindKind, events: list[ev.Event], dead: bool = False) -> None:
        """Post a blind or ante; a short stack posts what it has and is all-in (RULES 2.8)."""
        stack = self._stacks[i]
        if not stack:
            return
        put = amount if amount < stack else stack
        self._stacks[i] = stack - put
        self._contributed[i] += put
        if dead:
            self._collected += put
            self._ante += put
            self._ante_index = i
        else:
            self._bets[i] += put
            self._round_total += put
        if put == stack:
            self._status[i] = ALL_IN
            self._active_count -= 1
        events.append(ev.blind_posted(self._seats[i], blind, put, put == stack))

    def _fold(self, i: int) -> None:
        self._status[i] = FOLDED
        self._active_count -= 1
        self._live_count -= 1

    def _clockwise(self) -> list[int]:
        """Player indices clockwise starting left of the button."""
        count = len(self._seats)
        first = self._button_index + 1
        return [(first + k) % count for k in range(count)]

    # ----------------------------------------------------------- settlement

    def _win_uncontested(self, events: list[ev.Event]) -> None:
        """RULES 5.1: the last player in wins every pot without showing."""
        self._to_act = None
        self._collect_bets(events)
        winner = next(i for i, status in enumerate(self._status) if status is not FOLDED)
        pots = self._layered_pots(self._contributed)
        winnings = [0] * len(self._seats)
        awards = []
        for k, (amount, _) in enumerate(pots):
            winnings[winner] += amount
            seat = self._seats[winner]
            awards.append(PotAward(k, amount, (seat,), ((seat, amount),)))
            events.append(ev.pot_awarded(k, amount, [seat], [(seat, amount)]))
        self._finish(awards, winnings, events)

    def _showdown(self, events: list[ev.Event]) -> None:
        clockwise = self._clockwise()
        live = [i for i in clockwise if self._status[i] is not FOLDED]
        rank = [0] * len(clockwise)
        for position, i in enumerate(clockwise):
            rank[i] = position
        shows, awards, winnings = settle_showdown(
            seats=self._seats,
            holes=self._holes,
            board=self._board,
            order=showdown_order(live, self._last_aggressor),
            pots=self._layered_pots(self._contributed),
            turn_all_up=self._active_count <= 1,
            clockwise_rank=rank,
        )
        events.extend(shows)
        self._finish(awards, winnings, events)

    def _finish(self, awards: list[PotAward], winnings: list[int], events: list[ev.Event]) -> None:
        for i, chips in enumerate(winnings):
            self._stacks[i] += chips
        self._collected = 0
        self._awards = awards
        self._over = True
        events.append(ev.hand_ended(list(zip(self._seats, self._stacks, strict=True))))

    def _layered_pots(self, amounts: Sequence[int]) -> list[tuple[int, list[int]]]:
        """The pots by contribution levels (RULES 4.1); the big blind ante is dead money in the
        main pot that every player dealt in and not folded can win, and no part of the big
        blind's level (RULES 8.4)."""
        status = self._status
        ante = self._ante
        if ante:
            amounts = list(amounts)
            amounts[self._ante_index] -= ante
        pots = layer_pots(
            amounts,
            [s is not FOLDED for s in status],
            [s is ALL_IN or s is PROTECTED for s in status],
        )
        if ante:
            if pots:
                pots[0] = (pots[0][0] + ante, pots[0][1])
            else:
                pots = [(ante, [i for i, s in enumerate(status) if s is not FOLDED])]
        return pots
