"""The hand state machine's public interface: ``Hand``.

``Hand(config, deck)``, then ``start()``, then ``apply(action)`` until
``is_over``; ``legal_actions()`` says what the seat to act may do. Every
action is validated completely before anything changes (``_check``), which
is what lets ``IllegalAction`` leave the hand untouched without copying it.
The mechanics (posting, dealing, rounds, settlement) live in ``flow.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from . import events as ev
from .betting import STREETS, Action, ActionKind, LegalActions, PlayerStatus, Street, WagerKind
from .config import HandConfig
from .errors import IllegalAction, _
from .flow import ACTIVE, ALL_IN, PROTECTED, HandFlow
from .pots import Pot, PotAward

# Bound to module names for the hot path (an enum class lookup costs several times a global's).
_BET: Final = ActionKind.BET
_RAISE: Final = ActionKind.RAISE
_HAND_SHOWN: Final = ev.EventType.HAND_SHOWN
_HANDS_TURNED_UP: Final = ev.EventType.HANDS_TURNED_UP
_CARDS_SHOWN: Final = ev.EventType.CARDS_SHOWN

_NO_CHIPS_TO_RAISE = _("You do not have enough chips to raise: you may call all-in or fold")
_NOBODY_TO_RAISE = _("No other player could call a raise: you may only call or fold")
_CAPPED = _("The betting is capped: you may only call or fold")
_NOT_REOPENED = _("The all-in was less than a full raise and does not reopen the betting: you may only call or fold")
_NO_AMOUNT = {
    ActionKind.FOLD: _("A fold takes no amount"),
    ActionKind.CHECK: _("A check takes no amount"),
    ActionKind.CALL: _("A call takes no amount"),
    ActionKind.TIMEOUT: _("A timeout takes no amount"),
}
_WAGER_TO = {ActionKind.BET: _("Bet must be to {amount}"), ActionKind.RAISE: _("Raise must be to {amount}")}
_WAGER_BETWEEN = {
    ActionKind.BET: _("Bet must be to between {low} and {high}"),
    ActionKind.RAISE: _("Raise must be to between {low} and {high}"),
}


class Hand(HandFlow):
    """One hand of Omaha High; see the package docstring for a full example."""

    # The LegalActions last computed, reused until the next event: a client
    # usually asks for them and then acts, and validation checks against them.
    __slots__ = ("_legal", "_legal_version")

    def __init__(self, config: HandConfig, deck: Sequence[int]) -> None:
        super().__init__(config, deck)
        self._legal: LegalActions | None = None
        self._legal_version = -1

    @classmethod
    def replay(cls, config: HandConfig, deck: Sequence[int], actions: Iterable[Action]) -> Hand:
        """Rebuild a hand from its config, deck and action log (the persistence format)."""
        hand = cls(config, deck)
        hand.start()
        for action in actions:
            hand.apply(action)
        return hand

    def start(self) -> list[ev.Event]:
        """Post the blinds (RULES 2.3-2.8), deal (RULES 1.4) and open the pre-flop betting."""
        if self._started:
            raise IllegalAction(_("The hand has already started"))
        self._started = True
        config = self.config
        index_of = {seat: i for i, seat in enumerate(self._seats)}
        big_blind = index_of[config.big_blind_seat]
        events: list[ev.Event] = [ev.hand_started(config)]
        if config.small_blind_seat is not None and config.small_blind:
            small_blind = index_of[config.small_blind_seat]
            self._post(small_blind, config.small_blind, ev.BlindKind.SMALL_BLIND, events)
        self._post(big_blind, config.big_blind, ev.BlindKind.BIG_BLIND, events)
        if config.big_blind_ante:
            # RULES 8.4: the big blind first, then what is left of the stack as the ante (dead money).
            self._post(big_blind, config.big_blind_ante, ev.BlindKind.BIG_BLIND_ANTE, events, dead=True)
        extra = {setup.seat for setup in config.seats if setup.posts_big_blind}
        for i in self._clockwise():
            if self._seats[i] in extra:
                self._post(i, config.big_blind, ev.BlindKind.EXTRA_BIG_BLIND, events)
        self._deal_hole_cards(events)
        self._advance(big_blind, events)  # RULES 3.2: first to act is left of the big blind
        self._events.extend(events)
        return events

    def legal_actions(self) -> LegalActions | None:
        """What the seat to act may do, or None when nobody is to act."""
        if self._legal_version == len(self._events):
            return self._legal
        self._legal_version = len(self._events)
        self._legal = self._compute_legal_actions()
        return self._legal

    def _compute_legal_actions(self) -> LegalActions | None:
        i = self._to_act
        if i is None:
            return None
        my_bet = self._bets[i]
        stack = self._stacks[i]
        to_call = self._round.current_bet - my_bet
        bet_kind: WagerKind | None
        low: int | None
        high: int | None
        if self._wager_refusal(i, to_call) is not None:
            bet_kind = low = high = None
        else:
            bet_kind = _RAISE if self._round.current_bet else _BET
            low, high = self._round.bounds(my_bet, my_bet + stack, self._collected + self._round_total)
        call = to_call if to_call < stack else stack
        return LegalActions(self._seats[i], True, to_call == 0, call, bet_kind, low, high)

    def apply(self, action: Action) -> list[ev.Event]:
        """Play one action; raises ``IllegalAction`` (state unchanged) if it is not allowed."""
        i, total = self._check(action)
        kind = action.kind
        street = STREETS[self._street_index]
        if kind is ActionKind.FOLD or kind is ActionKind.TIMEOUT:
            event = self._give_up(i, kind, street)
        else:
            bets = self._bets
            put = total - bets[i]
            stack = self._stacks[i] - put
            self._stacks[i] = stack
            bets[i] = total
            self._contributed[i] += put
            self._round_total += put
            self._acted[i] = True
            if not stack:
                self._status[i] = ALL_IN
                self._active_count -= 1
            if kind is ActionKind.BET or kind is ActionKind.RAISE:
                self._round.record_wager(total)
                self._last_aggressor = i
            event = ev.player_acted(self._seats[i], street, kind, put, total, not stack)
        events: list[ev.Event] = [event]
        self._actions.append(action)
        self._advance(i, events)
        self._events.extend(events)
        return events

    def can_show_uncontested(self, seat: int) -> bool:
        """Whether ``seat`` won the hand without being called and has not shown yet (RULES 5.1:
        no one has to show; the winner may choose to)."""
        return self._show_refusal(seat) is None

    def show_uncontested(self, seat: int) -> list[ev.Event]:
        """The winner nobody called shows their cards after the hand: one ``cards_shown`` event.
        Raises ``IllegalAction`` (nothing changes) for anyone else or a second time."""
        refusal = self._show_refusal(seat)
        if refusal is not None:
            raise IllegalAction(refusal)
        event = ev.cards_shown(seat, ev.card_texts(self._holes[self._seats.index(seat)]))
        self._events.append(event)
        return [event]

    def _show_refusal(self, seat: int) -> str | None:
        if not self._over:
            return _("Cards are shown this way only after the hand")
        if seat not in self._seats:
            return _("Only the winner may show their cards")
        i = self._seats.index(seat)
        revealed = (_HAND_SHOWN, _HANDS_TURNED_UP, _CARDS_SHOWN)
        if self._status[i] is PlayerStatus.FOLDED or self._live_count != 1:
            return _("Only the winner nobody called may show their cards")
        if any(event["type"] in revealed for event in self._events):
            return _("The cards have been shown already")
        return None

    def _give_up(self, i: int, kind: ActionKind, street: Street) -> ev.PlayerActed | ev.TimedOut:
        """Fold, or time out (RULES 6.2): folded if nothing is in the pot, else
        all-in at what is in, the rest of the stack kept out of play."""
        seat = self._seats[i]
        if kind is ActionKind.FOLD:
            self._fold(i)
            return ev.player_acted(seat, street, kind, 0, self._bets[i], False)
        if self._timeout_protects(i):
            self._status[i] = PROTECTED
            self._active_count -= 1
            return ev.timed_out(seat, street, ev.Became.PROTECTED_ALL_IN)
        self._fold(i)
        return ev.timed_out(seat, street, ev.Became.FOLD)

    def _timeout_protects(self, i: int) -> bool:
        return self._contributed[i] > 0

    def timeout_outcome(self) -> ev.Became | None:
        """What a TIMEOUT would make of the seat to act now (RULES 6.2): a protected all-in
        if it has chips in the pot, else a fold. None when nobody is to act.

        >>> from tables.engine import Hand, HandConfig, SeatSetup, Variant
        >>> from tables.engine.deck import FULL_DECK
        >>> hand = Hand(HandConfig(Variant.POT_LIMIT, 1, 2, 0, (SeatSetup(1, 100), SeatSetup(2, 100), SeatSetup(3, 100)), 1, 2, 3), FULL_DECK)
        >>> _ = hand.start()
        >>> hand.to_act, hand.timeout_outcome()  # the button has nothing in the pot
        (1, <Became.FOLD: 'fold'>)
        """
        return (
            None
            if self._to_act is None
            else (ev.Became.PROTECTED_ALL_IN if self._timeout_protects(self._to_act) else ev.Became.FOLD)
        )

    # ----------------------------------------------------------- validation

    def _check(self, action: Action) -> tuple[int, int]:
        """Return (player index, bet total after the action) or raise IllegalAction."""
        if not self._started:
            raise IllegalAction(_("The hand has not started yet"))
        if self._over:
            raise IllegalAction(_("The hand is over"))
        legal = self._legal if self._legal_version == len(self._events) else self.legal_actions()
        i = self._to_act
        assert legal is not None and i is not None  # a started hand that is not over has someone to act
        if action.seat != legal.seat:
            raise IllegalAction(_("It is not seat {seat}'s turn"), seat=action.seat)
        kind = action.kind
        amount = action.amount
        if amount is not None and kind is not ActionKind.BET and kind is not ActionKind.RAISE:
            raise IllegalAction(_NO_AMOUNT[kind])
        my_bet = self._bets[i]
        current = self._round.current_bet
        if kind is ActionKind.CHECK:
            if not legal.can_check:
                raise IllegalAction(_("You cannot check facing a bet of {bet}"), bet=current)
            return i, my_bet
        if kind is ActionKind.CALL:
            if legal.can_check:
                raise IllegalAction(_("There is no bet to call: you may check"))
            return i, my_bet + legal.call_amount
        if kind is ActionKind.FOLD or kind is ActionKind.TIMEOUT:
            return i, my_bet
        if kind is ActionKind.BET and current:
            raise IllegalAction(_("There is already a bet of {bet}: you may raise"), bet=current)
        if kind is ActionKind.RAISE and not current:
            raise IllegalAction(_("There is no bet to raise: you may bet"))
        low, high = legal.min_to, legal.max_to
        if low is None or high is None:
            refusal = self._wager_refusal(i, current - my_bet)
            assert refusal is not None  # legal_actions offered no bet for this reason
            raise IllegalAction(refusal)
        if type(amount) is not int or not low <= amount <= high:
            if low == high:
                raise IllegalAction(_WAGER_TO[kind], amount=low)
            raise IllegalAction(_WAGER_BETWEEN[kind], low=low, high=high)
        return i, amount

    def _wager_refusal(self, i: int, to_call: int) -> str | None:
        """Why player i may not bet or raise now, or None if they may."""
        if self._stacks[i] <= to_call:
            return _NO_CHIPS_TO_RAISE
        if self._round.capped:
            return _CAPPED
        if self._acted[i] and not self._round.reopens_for(to_call):
            return _NOT_REOPENED  # RULES 3.7
        if not self._someone_could_call_more(i):  # last: the only check that loops
            return _NOBODY_TO_RAISE
        return None

    def _someone_could_call_more(self, i: int) -> bool:
        """Whether another player could still put in more than the current bet.

        If not, a raise could never be called, only returned (RULES 3.9).
        """
        if self._active_count < 2:
            return False
        current = self._round.current_bet
        stacks, bets = self._stacks, self._bets
        for k, status in enumerate(self._status):
            if status is ACTIVE and k != i and stacks[k] + bets[k] > current:
                return True
        return False

    # ----------------------------------------------------------- reading the state

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None (before start, and once the hand is over)."""
        return None if self._to_act is None else self._seats[self._to_act]

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def street(self) -> Street:
        """The current betting round; the last one reached once the hand is over."""
        return STREETS[self._street_index]

    @property
    def board(self) -> tuple[int, ...]:
        return tuple(self._board)

    @property
    def deck(self) -> tuple[int, ...]:
        """The whole deck in dealing order. Server side only: it holds every card."""
        return self._deck

    @property
    def pots(self) -> list[Pot]:
        """Chips in the middle from finished rounds, main pot first; empty once paid.

        Bets of the current round are not in a pot yet (see ``bets``).
        """
        if self._over:
            return []
        collected = [chips - bet for chips, bet in zip(self._contributed, self._bets, strict=True)]
        return [
            Pot(amount, tuple(self._seats[i] for i in eligible)) for amount, eligible in self._layered_pots(collected)
        ]

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind (not bet) per seat."""
        return dict(zip(self._seats, self._stacks, strict=True))

    @property
    def starting_stacks(self) -> dict[int, int]:
        return dict(zip(self._seats, self._starting_stacks, strict=True))

    @property
    def bets(self) -> dict[int, int]:
        """Chips each seat has bet in the current round, not yet in a pot."""
        return dict(zip(self._seats, self._bets, strict=True))

    @property
    def contributed(self) -> dict[int, int]:
        """Chips each seat has put in this hand, net of uncalled bets returned."""
        return dict(zip(self._seats, self._contributed, strict=True))

    @property
    def statuses(self) -> dict[int, PlayerStatus]:
        """Per seat: active, all-in, protected (timed out, RULES 6.2) or folded."""
        return dict(zip(self._seats, self._status, strict=True))

    @property
    def results(self) -> list[PotAward]:
        """How each pot was paid; empty until the hand is over."""
        return list(self._awards)

    @property
    def payouts(self) -> dict[int, int]:
        """Chips won from the pots per seat (uncalled bets returned are not winnings)."""
        won = dict.fromkeys(self._seats, 0)
        for award in self._awards:
            for seat, chips in award.winners:
                won[seat] += chips
        return won

    @property
    def actions(self) -> tuple[Action, ...]:
        """The action log: ``Hand.replay(config, deck, actions)`` rebuilds this hand."""
        return tuple(self._actions)

    @property
    def events(self) -> list[ev.Event]:
        """Every event so far, private ones included (filter with ``projection``)."""
        return list(self._events)

    def hole_cards(self, seat: int) -> tuple[int, ...]:
        """A seat's hole cards (empty before the deal). Server side only: they are private."""
        return self._holes[self._seats.index(seat)]

    def to_dict(self) -> dict[str, Any]:
        """The complete state, JSON-safe (enum members as their text, as in events), hole cards and
        deck included (server side only)."""
        return {
            "config": self.config.to_dict(),
            "deck": ev.card_texts(self._deck),
            "actions": [action.to_dict() for action in self._actions],
            "started": self._started,
            "is_over": self._over,
            "street": ev.text_of(STREETS[self._street_index]),
            "board": ev.card_texts(self._board),
            "to_act": self.to_act,
            "round": self._round.to_dict(),
            "last_aggressor": (None if self._last_aggressor is None else self._seats[self._last_aggressor]),
            "collected": self._collected,
            "players": [
                {
                    "seat": seat,
                    "stack": self._stacks[i],
                    "bet": self._bets[i],
                    "contributed": self._contributed[i],
                    "status": ev.text_of(self._status[i]),
                    "acted": self._acted[i],
                    "hole_cards": ev.card_texts(self._holes[i]),
                }
                for i, seat in enumerate(self._seats)
            ],
            "pots": [pot.to_dict() for pot in self.pots],
            "results": [award.to_dict() for award in self._awards],
        }
