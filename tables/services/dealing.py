"""Dealing the next hand when a table is idle, its pause is over and two players are ready."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from psycopg.types.json import Jsonb

from operations import metrics
from tables.engine import Hand as EngineHand
from tables.engine import HandConfig, SeatSetup, Variant, fairness
from tables.engine.cards import format_cards
from tables.engine.events import Event
from tables.engine.positions import HandPositions, PlayedPositions, SeatStatus, plan_next_hand
from tables.models import Hand, HandEvent, HandPlayer, Seat, Table
from tables.selectors.table_state import keep_hand_players

from . import held_engines, owned_tables
from .changes import mark_changed
from .chat import say_hand_started, say_who_won
from .contributions import SEED_FIELDS, contributions_record, gather_contributions, take_next_seed
from .event_log import append_events
from .locking import lock_table
from .owned_tables import bound_cursor, on_postgresql
from .seat_options import sit_out_at_big_blind
from .sitting_out import stand_up_passed_by_big_blind
from .table_rules import HandStakes, rules_for
from .time_bank import REFILL_FIELDS, refill_time_banks
from .turns import Turn, fold_leaving_players, record

State = Seat.State
READY = (State.PLAYING, State.WAITING_FOR_BIG_BLIND)


def start_hand_if_due(
    *, table_id: int, now: datetime | None = None, deck: Sequence[int] | None = None, hold_rows: bool = False
) -> Hand | None:
    """Deal the next hand if it is due; ``deck``: a chosen deck (tests only: the seeds then do not
    explain it, so its full reveal fails), else the deck the seeds determine. ``hold_rows``: the
    dealing process plays the table (``tables.realtime.owner_deals``): the rows the deal wrote
    are held for the hand's first action (``owned_tables``), as an action's are for the next."""
    now = now or timezone.now()
    with transaction.atomic():
        checked = check_hand_due(table_id=table_id, now=now)
        if checked is None:
            return None
        table, seats, plan, number, freed = checked
        turn = do_deal(table, seats, plan, number, now, deck)
        metrics.HANDS.labels("started").inc()
        # Who plays the hand, held for its screens once it commits (before they are announced).
        players = {seat_number: seats[seat_number].player_id for seat_number in plan.dealt_in}
        transaction.on_commit(lambda: keep_hand_players(turn.hand, players))
        # The screens are rendered from the rows the deal holds, as they are written (once the
        # blinds put everyone all-in, chips moved and seats changed: they read the table again).
        # The lobby's line (the seats taken, the average pot of hands played) changes only when
        # the deal stood a player up; a hand all-in from the blinds ends here, and its pot counts.
        mark_changed(
            table,
            held=None if turn.engine.is_over else turn.held_state,
            also=SEED_FIELDS,
            lobby=freed or turn.engine.is_over,
        )
        held_engines.keep_on_commit(turn.hand, turn.engine)
        say_hand_started(table, number, now)
        if turn.engine.is_over:  # the blinds put everyone all-in
            say_who_won(table, turn.engine, now)
        elif hold_rows and not freed and on_postgresql():
            hold_dealt_rows(turn)
    return turn.hand


def hold_dealt_rows(turn: Turn) -> None:
    """Hold the rows the deal wrote for the hand's first action, with their stamp read last,
    under the lock the deal holds: its rows as they commit. A deal that stood a seat up (RULES
    7.6) wrote more than the rows it holds (the seat's cash-out, the waiting list's offer, its
    count on the table's row) and does not come here; seats the stamp names otherwise than
    those held leave nothing held either. Then the action reads the rows."""
    stamp = owned_tables.stamp_under_lock(turn.table.pk)
    seats = sorted(turn.seats, key=lambda seat: seat.pk)
    if stamp is None or [seat.pk for seat in seats] != [seat_id for seat_id, _, _ in stamp.seats]:
        return
    owned_tables.keep_on_commit(turn.table, turn.hand, seats, stamp)


def check_hand_due(*, table_id: int, now: datetime) -> tuple[Table, dict[int, Seat], HandPositions, int, bool] | None:
    """Lock the table; the seats and positions of its next hand, if one is due (RULES 2.1-2.11),
    its number, and whether a seat was freed on the way (RULES 7.6)."""
    table = lock_table(table_id)
    if not table.is_active or table.closing:
        return None
    # The last hand places the blinds; the one before it, the button after a dead small blind
    # (RULES 2.9). A running hand is the last one dealt.
    latest = list(Hand.objects.filter(table=table).order_by("-number").only("number", "config", "state")[:2])
    if latest and latest[0].state == Hand.State.RUNNING:
        return None
    if table.next_hand_at and now < table.next_hand_at:
        return None
    rules = rules_for(table)
    if rules is not None and not rules.may_deal(table, now):
        return None
    seats = {
        seat.number: seat
        for seat in Seat.objects.select_for_update(of=("self",)).select_related("player").filter(table=table)
    }
    if not table.is_tournament and not any(
        seat.state in READY and seat.disconnected_at is None for seat in seats.values()
    ):
        return None  # nobody who would be dealt in has the table open: it waits for one of them
    previous = [_played_positions(hand) for hand in latest]
    while True:
        plan = plan_next_hand(
            seat_count=table.seat_count,
            previous=previous,
            candidates=[_seat_status(seat, table.is_tournament) for seat in seats.values()],
            tournament=table.is_tournament,
        )
        if plan is None:
            return None
        big_blind = seats.get(plan.big_blind_seat)
        if big_blind is None or not big_blind.sit_out_next_big_blind:
            break
        sit_out_at_big_blind(big_blind, now)  # and plan again without them
    freed = stand_up_passed_by_big_blind(table, seats, previous, plan)  # RULES 7.6
    return table, seats, plan, (latest[0].number + 1) if latest else 1, freed


def do_deal(
    table: Table,
    seats: dict[int, Seat],
    plan: HandPositions,
    number: int,
    now: datetime,
    deck: Sequence[int] | None = None,
) -> Turn:
    """Create the hand (its configuration, seeds, card commitments and players), post and deal."""
    rules = rules_for(table)
    if rules is None:
        blinds = table.blinds
        stakes = HandStakes(blinds.small_blind, blinds.big_blind, blinds.big_bet)
    else:
        stakes = rules.stakes(table, now)  # the level's, for this hand (RULES 8.2, 8.3)
    config = HandConfig(
        variant=Variant(table.variant),
        small_blind=stakes.small_blind,
        big_blind=stakes.big_blind,
        big_bet=stakes.big_bet,
        big_blind_ante=stakes.big_blind_ante,
        seats=tuple(
            SeatSetup(
                seat=seat_number,
                stack=seats[seat_number].stack,
                posts_big_blind=seat_number in plan.extra_big_blinds,
                name=seats[seat_number].player.username,
            )
            for seat_number in sorted(plan.dealt_in)
        ),
        button=plan.button,
        small_blind_seat=plan.small_blind_seat,
        big_blind_seat=plan.big_blind_seat,
    )
    # The next hand's seed is written with the table's version (``start_hand_if_due``).
    seed, commitment = take_next_seed(table, save=False)
    contributions = gather_contributions(table, seed, commitment, {n: seats[n].player_id for n in plan.dealt_in})
    dealt = fairness.deal(seed, contributions)
    if deck is not None:
        dealt = fairness.commit_deck(tuple(deck), dealt.salts)
    dealt_in = [seats[n] for n in sorted(plan.dealt_in)]
    starting = {seat.number: seat.stack for seat in dealt_in}
    # An away player at a tournament table is dealt in and stays away (RULES 8.5); cash tables
    # never deal a player sitting out.
    for seat in dealt_in:
        if seat.state != State.SITTING_OUT:
            seat.state, seat.posts_big_blind_now = State.PLAYING, False
    refill_time_banks(table, dealt_in, save=False)
    hand = Hand(
        table=table,
        number=number,
        button=plan.button,
        config=config.to_dict(),
        deck=" ".join(format_cards(dealt.deck)),
        server_seed=seed.hex(),
        seed_commitment=commitment,
        contributions=contributions_record(contributions),
        merkle_root=dealt.root.hex(),
        tournament_level=stakes.level,
    )
    engine = EngineHand(config, dealt.deck)
    turn = Turn(table, hand, list(seats.values()), engine, now)
    events = engine.start()
    events += fold_leaving_players(turn)  # an away player first to act (RULES 8.5)
    if engine.is_over:  # the blinds put everyone all-in: recorded and settled as any action is
        hand.save(force_insert=True)
        write_deal(hand, dealt_in, starting, [], now)
        record(turn, events)
        return turn
    # As ``turns.record`` leaves a hand that goes on: its events counted, the first turn's clock set.
    hand.sequence = 1
    hand.turn_seat, hand.turn_started_at = engine.to_act, now
    hand.turn_deadline = now + timedelta(seconds=table.time_to_act)
    hand.save(force_insert=True)
    for seat in dealt_in:
        seat.stack = engine.stacks.get(seat.number, seat.stack)
    write_deal(hand, dealt_in, starting, events, now)
    return turn


def write_deal(hand: Hand, dealt_in: list[Seat], starting: dict[int, int], events: list[Event], now: datetime) -> None:
    """In one statement: the hand's players, their seats as the deal leaves them (state, time
    bank, stack) and the hand's first events (none: ``turns.record`` appends them)."""
    if not on_postgresql():
        HandPlayer.objects.bulk_create(
            HandPlayer(hand=hand, player_id=seat.player_id, seat=seat.number, starting_stack=starting[seat.number])
            for seat in dealt_in
        )
        Seat.objects.bulk_update(dealt_in, ["state", "posts_big_blind_now", *REFILL_FIELDS, "stack"])
        append_events(hand, events, first_sequence=0)
        return
    params: list[Any] = []  # Jsonb among them
    players = ", ".join(["(%s::bigint, %s::bigint, %s::smallint, %s::bigint)"] * len(dealt_in))
    for seat in dealt_in:
        params += [hand.pk, seat.player_id, seat.number, starting[seat.number]]
    values = ", ".join(["(%s::bigint, %s::varchar, %s::boolean, %s::integer, %s::integer, %s::bigint)"] * len(dealt_in))
    for seat in dealt_in:
        params += [seat.pk, str(seat.state), seat.posts_big_blind_now, seat.hands_since_refill, seat.time_bank_ms,
                   seat.stack]  # fmt: skip
    parts = [
        f"p AS (INSERT INTO {HandPlayer._meta.db_table} (hand_id, player_id, seat, starting_stack) "
        f"VALUES {players} RETURNING 1)",
        f"s AS (UPDATE {Seat._meta.db_table} AS seat SET state = v.state, posts_big_blind_now = v.posts, "
        "hands_since_refill = v.refills, time_bank_ms = v.bank, stack = v.stack "
        f"FROM (VALUES {values}) AS v(id, state, posts, refills, bank, stack) WHERE seat.id = v.id RETURNING 1)",
    ]
    counted = "0"
    if events:
        rows = ", ".join(["(%s::bigint, %s::integer, %s::varchar, %s::jsonb, %s::timestamptz)"] * len(events))
        for sequence, event in enumerate(events):
            params += [hand.pk, sequence, event["type"], Jsonb(event), now]
        parts.append(
            f"e AS (INSERT INTO {HandEvent._meta.db_table} (hand_id, sequence, type, payload, created_at) "
            f"VALUES {rows} RETURNING 1)"
        )
        counted = "(SELECT count(*) FROM e)"
    sql = "WITH " + ", ".join(parts) + f" SELECT (SELECT count(*) FROM p), (SELECT count(*) FROM s), {counted}"
    with bound_cursor() as cursor:
        cursor.execute(sql, params)
        written = cursor.fetchone()
    if written != (len(dealt_in), len(dealt_in), len(events)):  # pragma: no cover - constraints raise first
        raise RuntimeError(f"the deal was not all written: {written}")


def _played_positions(hand: Hand) -> PlayedPositions:
    config = hand.config
    return PlayedPositions(
        button=config["button"],
        small_blind_seat=config["small_blind_seat"],
        big_blind_seat=config["big_blind_seat"],
    )


def _seat_status(seat: Seat, tournament: bool = False) -> SeatStatus:
    # At a tournament table an away player (sitting out after a timeout) is dealt in (RULES 8.5).
    states = (State.PLAYING, State.WAITING_FOR_BIG_BLIND, State.SITTING_OUT) if tournament else READY
    return SeatStatus(
        seat=seat.number,
        sat_order=seat.pk,
        ready=seat.state in states and seat.stack > 0,
        waiting_for_big_blind=seat.state == State.WAITING_FOR_BIG_BLIND,
        wants_to_post_now=seat.posts_big_blind_now,
    )
