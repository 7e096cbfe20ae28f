"""A stateful adversary against the table and cashier services (hypothesis RuleBasedStateMachine).

Three players at a four-seat table sit, leave, top up, reload, sit out and in, act (in turn,
out of turn, with stale sequences, wrong amounts; here or as another process, past the rows
and engine this one holds), let the clock run out, close their account, leave and sit
straight down again with any buy-in (RULES 7.5), let the clock jump minutes ahead while
someone sits out (RULES 7.6), and replay any request id they used before, in any order; on
PostgreSQL some requests also race each other from threads. After every step:

- the chip audit is clean (ledger balanced, every escrow equal to its table's chips, every
  seat bound to a paid occupancy);
- every player owns exactly what the ledger issued to them plus what they won or lost in
  complete hands: bankroll + stacks + top-ups waiting + the stacks they started running
  hands with. A replay that created chips, or moved them between players outside a hand,
  breaks it;
- nobody sat down again within the window with less than they left with (RULES 7.5).

The frame-level adversary (tests/web/test_adversary_frames.py) plays the same game through
the real websocket consumers.
"""

import itertools
import uuid
from contextlib import suppress
from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from accounts.closing import DepartureRefused, close_account
from accounts.services import register_player
from bench.adversary_world import ownership_problems, rule_problems
from cashier import services as cashier
from cashier.audit import run_audit
from cashier.errors import CashierError
from tables import services
from tables.models import Hand, Seat, SeatSession, Table
from tables.selectors.hands import rebuild
from tables.services import held_engines, owned_tables
from tables.services.sitting_out import stand_up_idle_seats

from ..support.backends import on_postgresql
from ..support.races import at_once

# A bounded number of steps: a loaded machine takes longer, it is not wrong (the 300 s default is too short).
pytestmark = [pytest.mark.long, pytest.mark.timeout(1200), pytest.mark.django_db(transaction=True)]

PLAYERS = 3
_names = itertools.count(1)

players = st.integers(0, PLAYERS - 1)
amounts = st.one_of(st.integers(-5, 260), st.sampled_from([40, 100, 200]))
# An action's draws: who sends it, what, how much and against which sequence (``act``).
ACTION_DRAWS = {
    "who": st.integers(0, 5),
    "choice": st.integers(0, 9),
    "size": st.integers(0, 10**6),
    "drift": st.sampled_from([0, 0, 0, -1, 1]),
}


class TableAdversary(RuleBasedStateMachine):
    @initialize()
    def open_table(self):
        run = next(_names)
        self.table = Table.objects.create(
            name=f"Adversary {run}", variant="pot_limit", stake_small=1, stake_big=2, seat_count=4,
            min_buy_in=40, max_buy_in=200,
        )  # fmt: skip
        self.users = [register_player(username=f"adv{run}p{k}", password="x-Strong-pass-8412") for k in range(PLAYERS)]
        self.used: list[tuple[int, str]] = []  # (player, request nonce) ever sent: replay material

    # --- the requests a player can make ------------------------------------------------------

    def _request_id(self, player: int, replay: bool, pick: int) -> str:
        if replay and self.used:
            return self.used[pick % len(self.used)][1]
        nonce = uuid.uuid4().hex
        self.used.append((player, nonce))
        return nonce

    def _try(self, call, **kwargs):
        try:
            return call(**kwargs)
        except (*services.REFUSALS, CashierError):
            return None  # refused, nothing changed: the invariants check it

    @rule(player=players, seat=st.integers(0, 5), buy_in=amounts, replay=st.booleans(), pick=st.integers(0, 99))
    def sit(self, player, seat, buy_in, replay, pick):
        self._try(
            services.take_seat, user=self.users[player], table_id=self.table.pk, seat_number=seat, buy_in=buy_in,
            post_big_blind_now=pick % 2 == 0, request_id=self._request_id(player, replay, pick),
        )  # fmt: skip

    @rule(player=players, amount=amounts, replay=st.booleans(), pick=st.integers(0, 99))
    def top_up(self, player, amount, replay, pick):
        self._try(
            services.top_up, user=self.users[player], table_id=self.table.pk, amount=amount,
            request_id=self._request_id(player, replay, pick),
        )  # fmt: skip

    @rule(player=players, replay=st.booleans(), pick=st.integers(0, 99))
    def reload(self, player, replay, pick):
        self._try(cashier.reload, user=self.users[player], request_id=self._request_id(player, replay, pick))

    @rule(player=players)
    def leave(self, player):
        self._try(services.leave, user=self.users[player], table_id=self.table.pk)

    @rule(player=players)
    def close_the_account(self, player):
        """The player closes their account (refused while dealt into a running hand): their seat
        is cashed out and every chip goes back to the house; afterwards every request of theirs
        is refused, and the invariants hold for them too."""
        with suppress(DepartureRefused):
            close_account(user=self.users[player])

    @rule(player=players, seat=st.integers(1, 4), how=st.sampled_from(["minimum", "less", "same", "more", "max"]))
    def leave_and_come_back(self, player, seat, how):
        """RULES 7.5: straight back, with the minimum, a chip less, the same, a chip more, or the maximum."""
        user = self.users[player]
        self._try(services.leave, user=user, table_id=self.table.pk)
        last = SeatSession.objects.filter(table=self.table, player=user, ended_at__isnull=False).order_by("-ended_at")
        left_with = (last.values_list("cashed_out", flat=True).first() or 0) if last.exists() else 0
        buy_in = {"minimum": 40, "less": left_with - 1, "same": left_with, "more": left_with + 1, "max": 200}[how]
        self._try(
            services.take_seat, user=user, table_id=self.table.pk, seat_number=seat, buy_in=buy_in,
            post_big_blind_now=False, request_id=self._request_id(player, False, 0),
        )  # fmt: skip

    @rule(minutes=st.sampled_from([5, 10, 11, 30]))
    def clock_jumps_ahead(self, minutes):
        """RULES 7.6: whoever sat out past the table's limit (10 minutes) is stood up."""
        now = timezone.now() + timedelta(minutes=minutes)
        stand_up_idle_seats(table_id=self.table.pk, now=now)
        assert not Seat.objects.filter(
            table=self.table, state=Seat.State.SITTING_OUT, sat_out_at__lte=now - timedelta(minutes=10)
        ).exists()

    @rule(player=players, post_now=st.booleans())
    def sit_out_or_in(self, player, post_now):
        self._try(services.sit_out, user=self.users[player], table_id=self.table.pk)
        if post_now:
            self._try(services.sit_in, user=self.users[player], table_id=self.table.pk, post_big_blind_now=post_now)

    @rule(shuffle=st.randoms(use_true_random=False))
    def deal(self, shuffle):
        """Deal the next hand if it is due, from a deck hypothesis can replay (the room's own
        shuffle is the OS's CSPRNG, which no example could reproduce)."""
        deck = list(range(52))
        shuffle.shuffle(deck)
        # A timeout applied at its deadline (ahead of real time) puts the next hand's pause there too.
        due = Table.objects.filter(pk=self.table.pk).values_list("next_hand_at", flat=True).first()
        now = max(filter(None, [timezone.now(), due]))
        services.start_hand_if_due(table_id=self.table.pk, deck=deck, now=now)

    @rule(**ACTION_DRAWS)
    def act(self, who, choice, size, drift):
        """The player to act usually plays a legal action; sometimes someone else, a stale
        sequence or an amount out of bounds. (What is drawn does not depend on the table's
        state, so hypothesis can replay an example even after a race changed it.)"""
        hand = Hand.objects.filter(table=self.table, state=Hand.State.RUNNING).first()
        if hand is None:
            return
        legal = rebuild(hand).legal_actions()
        to_act = Seat.objects.get(table=self.table, number=legal.seat).player
        user = [to_act, to_act, to_act, *self.users][who]
        kinds = ["fold", "check" if legal.can_check else "call"] + ([legal.bet_kind] if legal.bet_kind else [])
        kind = [*kinds, "check", "raise"][choice % (len(kinds) + 2)]
        amount = None
        if kind in ("bet", "raise"):
            low, high = (legal.min_to or 2), (legal.max_to or 2)
            amount = low - 1 + size % (high - low + 3)  # one below the minimum to one above the maximum
        self._try(services.act, table_id=self.table.pk, user=user, kind=kind, amount=amount,
                  sequence=hand.sequence + drift)  # fmt: skip

    @rule(**ACTION_DRAWS)
    def act_in_another_process(self, who, choice, size, drift):
        """The same, applied by another server process: the rows and the engine this one holds
        stay as they were, stale (one writer per table: its next action finds out, RULES 3.3)."""
        rows = owned_tables._held.pop(self.table.pk, None)
        engines = dict(held_engines._held)
        held_engines._held.clear()
        try:
            self.act(who, choice, size, drift)
        finally:
            if rows is not None:
                owned_tables._held[self.table.pk] = rows
            held_engines._held.update(engines)

    @rule()
    def time_runs_out(self):
        hand = Hand.objects.filter(table=self.table, state=Hand.State.RUNNING).first()
        if hand is not None:
            services.expire_turn(table_id=self.table.pk, sequence=hand.sequence, now=hand.turn_deadline)

    @precondition(lambda self: on_postgresql())  # real row locks; elsewhere the other rules still run
    @rule(player=players, other=players, amount=amounts, pick=st.integers(0, 99))
    def race(self, player, other, amount, pick):
        """The same request from two threads at once, and another player's request beside it."""
        nonce = self._request_id(player, replay=pick % 3 == 0, pick=pick)
        user, table_id = self.users[player], self.table.pk
        calls = [
            lambda: services.top_up(user=user, table_id=table_id, amount=amount, request_id=nonce),
            lambda: services.top_up(user=user, table_id=table_id, amount=amount, request_id=nonce),
            lambda: services.take_seat(user=self.users[other], table_id=table_id, seat_number=1 + pick % 4,
                                       buy_in=amount, post_big_blind_now=False, request_id=uuid.uuid4().hex),
            lambda: services.leave(user=self.users[other], table_id=table_id),
        ]  # fmt: skip
        at_once(calls, expected=(*services.REFUSALS, CashierError))

    # --- after every step ---------------------------------------------------------------------

    @invariant()
    def audit_is_clean(self):
        report = run_audit()
        assert report.ok, report.problems

    @invariant()
    def nobody_came_back_with_less_than_they_left_with(self):
        problems = rule_problems(self.table)
        assert not problems, problems

    @invariant()
    def every_player_owns_what_the_ledger_issued_plus_what_they_won(self):
        problems = ownership_problems(self.users)
        assert not problems, problems

    def teardown(self):
        """Close the table (its chips go home), so later examples audit a small room."""
        if not hasattr(self, "table"):
            return
        while (hand := Hand.objects.filter(table=self.table, state=Hand.State.RUNNING).first()) is not None:
            services.expire_turn(table_id=self.table.pk, sequence=hand.sequence, now=hand.turn_deadline)
        services.close_table(table_id=self.table.pk)
        assert not Seat.objects.filter(table=self.table).exists()
        assert cashier.table_account(self.table).balance == 0


def test_no_sequence_of_requests_creates_or_moves_chips_it_should_not():
    TableAdversary.TestCase.settings = settings(
        max_examples=30, stateful_step_count=50, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )  # fmt: skip
    TableAdversary.TestCase().runTest()
