"""The pure rules engine of Omaha High, Limit and Pot Limit (the rules: docs/rules.md).

No Django, no I/O, no clock, no randomness: given a ``HandConfig``, a deck
and a list of actions, a ``Hand`` produces the same events every time. The
room deals the deck ``fairness.deal`` derives from the server's seed and the players'
contributions (docs/fair-dealing.md); ``deck.shuffled_deck()`` (CSPRNG, RULES 1.2) serves tests.

Playing a hand (a doctest, run by the engine tests)::

    >>> from tables.engine import Action, ActionKind, Hand, HandConfig, SeatSetup, Variant
    >>> from tables.engine.deck import shuffled_deck
    >>> config = HandConfig(
    ...     variant=Variant.POT_LIMIT, small_blind=1, big_blind=2, big_bet=0,
    ...     seats=(SeatSetup(1, 200, name="ann"), SeatSetup(3, 150), SeatSetup(4, 90)),
    ...     button=1, small_blind_seat=3, big_blind_seat=4,
    ... )
    >>> hand = Hand(config, shuffled_deck())
    >>> events = hand.start()  # hand_started, blind_posted x2, hole_cards_dealt x3
    >>> hand.legal_actions()  # doctest: +NORMALIZE_WHITESPACE
    LegalActions(seat=1, can_fold=True, can_check=False, call_amount=2,
                 bet_kind=<ActionKind.RAISE: 'raise'>, min_to=4, max_to=7)
    >>> events += hand.apply(Action(1, ActionKind.RAISE, 7))
    >>> events += hand.apply(Action(3, ActionKind.FOLD))
    >>> events += hand.apply(Action(4, ActionKind.CALL))
    >>> hand.street, hand.to_act, hand.pots
    (<Street.FLOP: 'flop'>, 4, [Pot(amount=15, eligible=(1, 4))])
    >>> while not hand.is_over:  # check it down to the showdown
    ...     events += hand.apply(Action(hand.to_act, ActionKind.CHECK))
    >>> sum(hand.stacks.values()), events[-1]["type"]
    (440, 'hand_ended')

Persist ``config.to_dict()``, the deck and ``[a.to_dict() for a in hand.actions]``;
``Hand.replay(config, deck, actions)`` rebuilds the identical state.

Interface
---------
The vocabulary is ``StrEnum``s, each member equal to its text ("limit") and
written as it in JSON, templates and f-strings: ``Variant`` (LIMIT,
POT_LIMIT), ``Street``, ``ActionKind``, ``PlayerStatus`` (ACTIVE, ALL_IN,
PROTECTED, FOLDED) and, in ``events``, ``EventType``, ``BlindKind`` and
``Became``. Events and ``to_dict()`` hold the members' plain text.
``SeatSetup(seat, stack, posts_big_blind=False, name="")``.
``HandConfig(variant, small_blind, big_blind, big_bet, seats, button,
small_blind_seat, big_blind_seat, big_blind_ante=0)``: validated (ValueError);
``to_dict()``/``from_dict()``. Limit: ``big_blind`` is the small bet and
``big_bet`` the turn/river bet; Pot Limit: ``big_bet`` must be 0.
Heads-up ``small_blind_seat == button``. After a departure (RULES 2.9)
``small_blind_seat`` may be None (a dead small blind: nobody posts it) and
``button`` a seat nobody is dealt in from (a dead button: the player right
of it acts last); ``positions.plan_next_hand`` places them.
``ActionKind``: FOLD, CHECK, CALL, BET, RAISE, TIMEOUT. ``Action(seat, kind,
amount=None)``: ``amount`` only for BET/RAISE, the total the seat's bet in
this round becomes ("raise to"). All-in is a call/bet/raise of the whole
stack. TIMEOUT is sent by the table's clock for the seat to act (RULES 6.2):
it folds a seat with nothing in the pot, otherwise makes it a protected
all-in at what it has put in (its other chips stay its own).
``Hand(config, deck)``: ``start()`` and ``apply(action)`` return the new
events; ``legal_actions()`` -> ``LegalActions(seat, can_fold, can_check,
call_amount, bet_kind, min_to, max_to)`` or None; properties ``to_act``,
``is_over``, ``street`` (``Street``), ``board``, ``pots`` (list of ``Pot(amount,
eligible)``), ``bets``, ``stacks``, ``starting_stacks``, ``contributed``,
``statuses`` (``PlayerStatus``), ``results`` (list of ``PotAward``), ``payouts``, ``actions``,
``events``; ``hole_cards(seat)``; ``to_dict()``; ``Hand.replay(...)``.
``IllegalAction`` (a ValueError) says what was wrong; the hand is unchanged.
Events (``TypedDict``s, any of them an ``Event``): see ``events.py``. What
each viewer may see: ``projection.py``.

Choices where docs/rules.md leaves room (Robert's Rules of Poker / TDA):
- All-in for less (RULES 3.7): a player who already acted may raise again
  only when what they now face is a full raise; several short all-ins can
  add up to one. Pot Limit: a full bet is at least the big blind, a full
  raise at least the last full raise. Limit (half-bet rule): an all-in that
  lifts the last full bet level by half a bet or more counts as a full raise
  (it reopens and counts toward the cap); a smaller one does not, and the
  next player may complete it to a full bet or raise.
- Pre-flop the call is the full big blind even when the big blind is short.
- No bet or raise is offered when no other player could put in more than
  the current bet; a player alone with chips who owes nothing is not asked
  to act (the board is run out).
- Showdown (RULES 5.4) auto-mucks a hand that cannot win or tie a contested
  pot given the hands shown before it; when all but one are all-in with no
  more betting, every hand is turned up (``hands_turned_up``, then shown).
  A pot with a single eligible player is theirs without a showdown.
- Odd chips (RULES 5.5): each pot is split on its own; its odd chips go one
  at a time clockwise, starting with the first tied winner left of the button.
- Timeout (RULES 6.2) folds a seat with nothing in the pot even when it could
  check, as the rule says.
"""

from .betting import Action, ActionKind, LegalActions, PlayerStatus, Street, away_action
from .config import HandConfig, SeatSetup, Variant
from .errors import IllegalAction
from .hand import Hand
from .pots import Pot, PotAward

__all__ = [
    "Action",
    "ActionKind",
    "Hand",
    "HandConfig",
    "IllegalAction",
    "LegalActions",
    "PlayerStatus",
    "Pot",
    "PotAward",
    "SeatSetup",
    "Street",
    "Variant",
    "away_action",
]
