"""How fast is the hand engine? Random 6-max hands, ours against PokerKit 0.7.7.

Both engines play the same kind of hands: six players, random stacks of 20 to
300 big blinds, and the same random policy for every decision (fold, check,
call, bet or raise a random legal size), to the end, showdown included.
The policy's random numbers come from ``random.Random(seed)`` so runs are
reproducible. Our engine is handed decks shuffled before the clock starts
(the table layer shuffles with ``deck.shuffled_deck`` whatever the engine);
PokerKit shuffles its own deck inside, a negligible part of its time.

Rates are hands per CPU second of this process (``time.process_time``), so
other work on a shared machine does not distort the ratio much.

    .venv/bin/python bench/engine_speed.py               # about 40 seconds
    .venv/bin/python bench/engine_speed.py --seconds 2   # quicker, noisier

Targets: at least 10x PokerKit, i.e. >= 1,400 Pot Limit and >= 3,000 Limit
hands per second on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pokerkit
from pokerkit.games import FixedLimitPokerMixin, Holdem, OmahaHoldemMixin

from tables.engine import Action, ActionKind, Hand, HandConfig, SeatSetup, Variant
from tables.engine.evaluator import omaha_strength

PLAYERS = 6
SMALL_BLIND, BIG_BLIND, BIG_BET = 1, 2, 4
POT_LIMIT, LIMIT = "pot_limit", "limit"


DECK_POOL = 1000


class Policy:
    """The random player both engines face; the same probabilities everywhere."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.random = rng.random
        self.decks = [rng.sample(range(52), 52) for _ in range(DECK_POOL)]
        self.hands_dealt = 0

    def stacks(self) -> list[int]:
        return [int(20 + 281 * self.random()) * BIG_BLIND for _ in range(PLAYERS)]

    def deck(self) -> list[int]:
        self.hands_dealt += 1
        return self.decks[self.hands_dealt % DECK_POOL]

    def choose(self, can_check: bool, can_raise: bool) -> str:
        """One of "fold", "passive" (check or call) or "raise"."""
        roll = self.random()
        if can_raise and roll < 0.25:
            return "raise"
        if not can_check and roll > 0.80:
            return "fold"
        return "passive"

    def size(self, low: int, high: int) -> int:
        """A uniform "raise to" total between low and high inclusive."""
        return low + int((high - low + 1) * self.random())


def play_ours(variant: str, policy: Policy) -> None:
    seats = tuple(SeatSetup(seat, stack) for seat, stack in enumerate(policy.stacks(), start=1))
    limit = variant == LIMIT
    config = HandConfig(
        variant=Variant.LIMIT if limit else Variant.POT_LIMIT,
        small_blind=SMALL_BLIND,
        big_blind=BIG_BLIND,
        big_bet=BIG_BET if limit else 0,
        seats=seats,
        button=PLAYERS,
        small_blind_seat=1,
        big_blind_seat=2,
    )
    hand = Hand(config, policy.deck())
    hand.start()
    while not hand.is_over:
        legal = hand.legal_actions()
        choice = policy.choose(legal.can_check, legal.bet_kind is not None)
        if choice == "raise":
            kind = ActionKind.BET if legal.bet_kind == "bet" else ActionKind.RAISE
            action = Action(legal.seat, kind, policy.size(legal.min_to, legal.max_to))
        elif choice == "fold":
            action = Action(legal.seat, ActionKind.FOLD)
        else:
            action = Action(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        hand.apply(action)


class FixedLimitOmahaHoldem(FixedLimitPokerMixin, OmahaHoldemMixin, Holdem):
    """PokerKit has no Limit Omaha High class; this composes one from its parts."""

    hand_types = (pokerkit.OmahaHoldemHand,)


_AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_DEALING,
    pokerkit.Automation.BOARD_DEALING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)


def play_pokerkit(variant: str, policy: Policy) -> None:
    stacks = policy.stacks()
    if variant == LIMIT:
        game = FixedLimitOmahaHoldem(_AUTOMATIONS, True, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND, BIG_BET)
        state = game(stacks, PLAYERS)
    else:
        state = pokerkit.PotLimitOmahaHoldem.create_state(
            _AUTOMATIONS, True, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND, stacks, PLAYERS
        )
    while state.status:
        can_raise = state.can_complete_bet_or_raise_to()
        can_check = state.checking_or_calling_amount == 0
        choice = policy.choose(can_check, can_raise)
        if choice == "raise":
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            state.complete_bet_or_raise_to(policy.size(low, high))
        elif choice == "fold":
            state.fold()
        else:
            state.check_or_call()


def hands_per_second(play: Callable[[str, Policy], None], variant: str, seconds: float, seed: int) -> float:
    policy = Policy(seed)
    hands = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(20):
            play(variant, policy)
        hands += 20
        now = time.process_time()
        if now >= deadline:
            return hands / (now - start)


def evaluations_per_second(seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    deals = []
    for _ in range(2000):
        cards = rng.sample(range(52), 9)
        deals.append((cards[:4], cards[4:]))
    count = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for hole, board in deals:
            omaha_strength(hole, board)
        count += len(deals)
    return count / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="CPU seconds per measurement")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    print(f"{PLAYERS}-max random hands, {args.seconds:g} CPU s per measurement")
    for variant, target in ((POT_LIMIT, 1400), (LIMIT, 3000)):
        ours = hands_per_second(play_ours, variant, args.seconds, args.seed)
        theirs = hands_per_second(play_pokerkit, variant, args.seconds, args.seed)
        verdict = "ok" if ours >= target and ours >= 10 * theirs else "BELOW TARGET"
        print(
            f"{variant:>9}: ours {ours:8.0f} hands/s   PokerKit {theirs:6.0f} hands/s   "
            f"ratio {ours / theirs:5.1f}x   (target >= {target} and >= 10x: {verdict})"
        )
    evaluations = evaluations_per_second(min(args.seconds, 3.0), args.seed)
    print(f"omaha_strength: {evaluations:,.0f} evaluations/s")


if __name__ == "__main__":
    main()
