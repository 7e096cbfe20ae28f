"""The blinds over whole orbits while players come and go: RULES 2.3, 2.7, 2.9, 2.10, 2.11.

A simulated table plays hand after hand with ``plan_next_hand``; between hands players
leave, sit down, sit out and come back. Every plan is turned into a ``HandConfig`` and
started in the engine, and the hands are checked together.

Definitions used by the checks:

* A player is *present* at a hand when, as that hand is planned, they occupy the same
  seat as before (the same player, not someone who took the seat since) and are ready
  to play: not sitting out. A present player may be waiting for the big blind.
* The big blind moves clockwise from hand to hand; its *travel* from one hand to the next
  is the number of seats it moves, (new seat - old seat) mod N for an N-seat table.
* The *orbit* that starts at hand i is hands i, i+1, ..., j-1, where j is the first hand
  after i at which the big blind's total travel since hand i reaches N: one full lap of
  the big blind round the table, hand j starting the next lap. An orbit whose lap is
  not completed before the simulation ends is not checked.
* A player *present for the whole orbit* is present at every hand i..j (hand j
  included: it is the hand for which the big blind passes the last seats of the lap).
* To *post the big blind* is to be the hand's big blind seat. A big blind posted to come
  in at once is not counted: it is an entrant's own choice (RULES 2.7, 2.11).

The checks: every player present for a whole orbit posts the big blind exactly once in
it (nobody skips it, nobody pays it twice, whoever leaves: RULES 2.9); nobody posts it in
two hands in a row, also when the table goes heads-up (RULES 2.9, 2.10); the small blind
is posted by the last big blind when that player plays on, and is otherwise dead with
three or more players (RULES 2.9); with three or more players the button goes where the
last small blind was, or would have been, and nobody gets it without paying the big blind
since they last had it or since they sat down or came back (a heads-up hand, where the
button is the small blind, or a new game starts this count afresh); heads-up the button posts the small blind and
acts first before the flop (RULES 2.3); an entrant comes in only through the big blind or
one big blind posted now, never on the small blind or the button (RULES 2.7, 2.11); and
the engine posts exactly the blinds planned.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine import Hand
from tables.engine.events import BlindKind, EventType
from tables.engine.positions import HandPositions, PlayedPositions, SeatStatus, plan_next_hand

from .support import config_for_plan

REGULAR, WAITING, SITTING_OUT = "regular", "waiting", "sitting out"
OPERATIONS = ("leave", "arrive", "sit_out", "come_back")


@dataclass
class Occupant:
    player: int
    sat_order: int
    state: str = WAITING
    post_now: bool = False


@dataclass(frozen=True)
class PlayedHand:
    plan: HandPositions
    players: dict[int, int]  # seat -> player, for every occupied seat as the hand was planned
    present: frozenset[int]  # players present (see the module docstring)
    regulars: frozenset[int]  # players who were regulars as the hand was planned
    new_game: bool  # fewer than two regulars: a new game starts (positions.py step 7)

    def player_at(self, seat: int | None) -> int | None:
        return None if seat is None else self.players.get(seat)


@dataclass
class SimulatedTable:
    seat_count: int
    seats: dict[int, Occupant] = field(default_factory=dict)
    hands: list[PlayedHand] = field(default_factory=list)
    _next_player: int = 0

    def change(self, operation: str, seat: int, post_now: bool) -> None:
        """One player's move between hands, as the seat controls allow it."""
        occupant = self.seats.get(seat)
        if operation == "arrive" and occupant is None:
            self._next_player += 1
            self.seats[seat] = Occupant(self._next_player, self._next_player, WAITING, post_now)
        elif operation == "leave" and occupant is not None:
            del self.seats[seat]
        elif operation == "sit_out" and occupant is not None and occupant.state != SITTING_OUT:
            occupant.state, occupant.post_now = SITTING_OUT, False
        elif operation == "come_back" and occupant is not None and occupant.state == SITTING_OUT:
            occupant.state, occupant.post_now = WAITING, post_now  # RULES 2.7, 2.11

    def play_hand(self) -> PlayedHand | None:
        candidates = [
            SeatStatus(
                seat=seat,
                sat_order=o.sat_order,
                ready=o.state != SITTING_OUT,
                waiting_for_big_blind=o.state == WAITING,
                wants_to_post_now=o.post_now,
            )
            for seat, o in self.seats.items()
        ]
        previous = [
            PlayedPositions(
                button=h.plan.button, small_blind_seat=h.plan.small_blind_seat, big_blind_seat=h.plan.big_blind_seat
            )
            for h in reversed(self.hands[-2:])
        ]
        plan = plan_next_hand(seat_count=self.seat_count, previous=previous, candidates=candidates)
        if plan is None:
            return None
        regulars = frozenset(o.player for o in self.seats.values() if o.state == REGULAR)
        played = PlayedHand(
            plan=plan,
            players={seat: o.player for seat, o in self.seats.items()},
            present=frozenset(o.player for o in self.seats.values() if o.state != SITTING_OUT),
            regulars=regulars,
            new_game=not self.hands or len(regulars) < 2,
        )
        check_the_engine_posts_the_plan(plan)
        for seat in plan.dealt_in:
            self.seats[seat].state, self.seats[seat].post_now = REGULAR, False
        self.hands.append(played)
        return played


def check_the_engine_posts_the_plan(plan: HandPositions) -> None:
    """The plan is a valid HandConfig and the engine posts exactly its blinds (RULES 2.3, 2.11)."""
    config = config_for_plan(plan)
    hand = Hand(config, list(range(52)))
    posts = sorted((e["seat"], e["blind"]) for e in hand.start() if e["type"] == EventType.BLIND_POSTED)
    expected = [
        (plan.big_blind_seat, BlindKind.BIG_BLIND),
        *((s, BlindKind.EXTRA_BIG_BLIND) for s in plan.extra_big_blinds),
    ]
    if plan.small_blind_seat is not None:
        expected.append((plan.small_blind_seat, BlindKind.SMALL_BLIND))
    assert posts == sorted(expected)
    if len(plan.dealt_in) == 2:
        # RULES 2.3: heads-up the button posts the small blind and acts first before the flop.
        assert plan.small_blind_seat == plan.button
        assert hand.to_act == plan.button


def check_hands(seat_count: int, hands: list[PlayedHand]) -> None:
    big_blinds = [h.plan.big_blind_seat for h in hands]
    for before, after in itertools.pairwise(hands):
        # RULES 2.9, 2.10: never the same player (nor the same seat) twice in a row.
        assert after.plan.big_blind_seat != before.plan.big_blind_seat
        assert after.player_at(after.plan.big_blind_seat) != before.player_at(before.plan.big_blind_seat)
    check_orbits(seat_count, hands, big_blinds)
    for k in range(1, len(hands)):
        check_small_blind_and_button(hands, k)
    check_no_button_before_the_big_blind(hands)
    for hand in hands:
        check_entrants(hand)


def check_orbits(seat_count: int, hands: list[PlayedHand], big_blinds: list[int]) -> None:
    """Every player present for a whole orbit posts the big blind exactly once in it."""
    travel = [0]
    for before, after in itertools.pairwise(big_blinds):
        travel.append(travel[-1] + (after - before) % seat_count)
    for start in range(len(hands)):
        end = next((j for j in range(start + 1, len(hands)) if travel[j] - travel[start] >= seat_count), None)
        if end is None:
            break  # this lap, and every later one, is not complete
        orbit = hands[start:end]
        for seat, player in hands[start].players.items():
            if all(h.players.get(seat) == player and player in h.present for h in hands[start : end + 1]):
                posted = sum(1 for h in orbit if h.plan.big_blind_seat == seat)
                assert posted == 1, (seat, player, start, end)


def check_small_blind_and_button(hands: list[PlayedHand], k: int) -> None:
    """RULES 2.9: the small blind and the button follow the big blind."""
    last, hand = hands[k - 1], hands[k]
    if hand.new_game:
        return
    plan, last_big_blind = hand.plan, last.plan.big_blind_seat
    big_blind_plays_on = (
        hand.players.get(last_big_blind) == last.player_at(last_big_blind)
        and hand.player_at(last_big_blind) in hand.regulars
    )
    if big_blind_plays_on:
        assert plan.small_blind_seat == last_big_blind
    elif len(plan.dealt_in) > 2:
        assert plan.small_blind_seat is None  # dead small blind
    if len(plan.dealt_in) > 2:
        # The button goes where the last small blind was, or would have been when dead.
        if last.plan.small_blind_seat is not None:
            assert plan.button == last.plan.small_blind_seat
        else:
            assert plan.button == hands[k - 2].plan.big_blind_seat


def check_no_button_before_the_big_blind(hands: list[PlayedHand]) -> None:
    """Nobody has a live button (three or more dealt in) twice without paying the big blind in
    between, nor before paying it since they sat down or came back. A new game starts afresh,
    and so does a heads-up hand, where the button is the small blind (RULES 2.3): the player
    on the button heads-up keeps it when a third player comes in, the seat order forces it."""
    owes: set[int] = set()
    for hand in hands:
        plan = hand.plan
        if hand.new_game or len(plan.dealt_in) == 2:
            owes = set()
        if not hand.new_game:
            owes |= hand.present - hand.regulars  # entrants have not paid their way round yet
            button_player = hand.player_at(plan.button)
            if len(plan.dealt_in) > 2 and not plan.has_dead_button:
                assert button_player not in owes
                owes.add(button_player)
        owes.discard(hand.player_at(plan.big_blind_seat))
        owes -= {hand.player_at(seat) for seat in plan.extra_big_blinds}


def check_entrants(hand: PlayedHand) -> None:
    """RULES 2.7, 2.11: an entrant is dealt in through the big blind or one big blind posted now."""
    plan = hand.plan
    if hand.new_game:
        return
    for seat in plan.dealt_in:
        if hand.player_at(seat) not in hand.regulars:
            assert seat == plan.big_blind_seat or seat in plan.extra_big_blinds
            assert seat != plan.small_blind_seat and seat != plan.button


# --- A script of comings and goings -------------------------------------------------

changes = st.tuples(st.sampled_from(OPERATIONS), st.integers(1, 10), st.booleans())
scripts = st.tuples(
    st.integers(2, 10),
    st.lists(st.integers(1, 10), max_size=10),  # who sits down before the first hand
    st.lists(st.lists(changes, max_size=3), min_size=10, max_size=40),  # between hands
)


def simulate(seat_count, first_seats, between_hands) -> SimulatedTable:
    table = SimulatedTable(seat_count)
    for seat in first_seats:
        table.change("arrive", (seat - 1) % seat_count + 1, False)
    table.play_hand()
    for moves in between_hands:
        for operation, seat, post_now in moves:
            table.change(operation, (seat - 1) % seat_count + 1, post_now)
        table.play_hand()
    return table


@settings(max_examples=300, deadline=None)
@given(scripts)
def test_rules_2_9_to_2_11_orbits_with_players_coming_and_going(script):
    """About 300 random tables of 10 to 40 hands each: thousands of hands in all."""
    seat_count, first_seats, between_hands = script
    table = simulate(seat_count, first_seats, between_hands)
    check_hands(seat_count, table.hands)


def test_rules_2_9_to_2_11_one_long_night_at_a_busy_table():
    """3,000 hands at a 9-seat table where someone comes or goes most hands; the run does meet
    dead small blinds, dead buttons, heads-up play and tables going heads-up."""
    rng = random.Random(2911)
    # Arrivals and returns often miss (the seat is taken, the player is not sitting out), so
    # they come up more often to keep about six players at the table.
    moves = ("leave", "arrive", "arrive", "arrive", "sit_out", "come_back", "come_back")
    between_hands = [
        [(rng.choice(moves), rng.randint(1, 9), rng.random() < 0.5) for _ in range(rng.choice((0, 1, 1, 2)))]
        for _ in range(3000)
    ]
    table = simulate(9, list(range(1, 10)), between_hands)
    check_hands(9, table.hands)
    plans = [h.plan for h in table.hands]
    assert len(plans) > 2500
    assert sum(p.small_blind_seat is None for p in plans) > 40
    assert sum(p.has_dead_button for p in plans) > 80
    assert sum(len(p.dealt_in) == 2 for p in plans) > 10
    assert sum(len(a.dealt_in) > 2 and len(b.dealt_in) == 2 for a, b in itertools.pairwise(plans)) >= 5
    assert sum(len(p.extra_big_blinds) for p in plans) > 50
