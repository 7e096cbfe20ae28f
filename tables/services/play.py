"""Hands at a table: start one when players are ready, apply actions and timeouts, settle.

Every function runs in one transaction holding the table's row lock, and
each action request names the hand sequence it was made against, so a click
and a timeout (or two clicks) can never both apply.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tables.engine import Action, ActionKind, HandConfig, SeatSetup, Variant
from tables.engine import Hand as EngineHand
from tables.engine.cards import format_cards
from tables.engine.deck import deck_commitment, new_salt, shuffled_deck
from tables.engine.positions import PlayedPositions, SeatStatus, plan_next_hand
from tables.models import Hand, HandPlayer, Seat, Table
from tables.presentation.table_state import table_state

from .errors import StaleAction, TableError
from .hand_log import append_events, rebuild
from .locking import lock_table, mark_changed, running_hand

State = Seat.State


def in_running_hand(table: Table, seat: Seat) -> bool:
    """Whether the seat was dealt into the running hand (its stack is in play, RULES 3.8)."""
    hand = running_hand(table)
    return hand is not None and any(s["seat"] == seat.number for s in hand.config["seats"])


# --- starting ------------------------------------------------------------------


def start_hand_if_due(*, table_id: int, now: datetime | None = None, deck=None) -> Hand | None:
    """Deal the next hand if the table is idle, the pause is over and two players are ready."""
    now = now or timezone.now()
    with transaction.atomic():
        table = lock_table(table_id)
        if not table.is_active or table.closing or running_hand(table) is not None:
            return None
        if table.next_hand_at and now < table.next_hand_at:
            return None
        seats = {seat.number: seat for seat in Seat.objects.select_for_update().filter(table=table)}
        # The last hand places the blinds; the one before it, the button after a dead small blind (RULES 2.9).
        latest = list(Hand.objects.filter(table=table).order_by("-number").only("number", "config")[:2])
        last = latest[0] if latest else None
        plan = plan_next_hand(
            seat_count=table.seat_count,
            previous=[_played_positions(hand) for hand in latest],
            candidates=[_seat_status(seat) for seat in seats.values()],
        )
        if plan is None:
            return None
        blinds = table.blinds
        config = HandConfig(
            variant=Variant(table.variant),
            small_blind=blinds.small_blind,
            big_blind=blinds.big_blind,
            big_bet=blinds.big_bet,
            seats=tuple(
                SeatSetup(
                    seat=number,
                    stack=seats[number].stack,
                    posts_big_blind=number in plan.extra_big_blinds,
                    name=seats[number].player.username,
                )
                for number in sorted(plan.dealt_in)
            ),
            button=plan.button,
            small_blind_seat=plan.small_blind_seat,
            big_blind_seat=plan.big_blind_seat,
        )
        deck = tuple(deck) if deck is not None else shuffled_deck()
        salt = new_salt()
        hand = Hand.objects.create(
            table=table,
            number=(last.number + 1) if last else 1,
            button=plan.button,
            config=config.to_dict(),
            deck=" ".join(format_cards(deck)),
            salt=salt,
            deck_commitment=deck_commitment(deck, salt),
        )
        HandPlayer.objects.bulk_create(
            HandPlayer(hand=hand, player=seats[n].player, seat=n, starting_stack=seats[n].stack) for n in plan.dealt_in
        )
        Seat.objects.filter(table=table, number__in=plan.dealt_in).update(
            state=State.PLAYING, posts_big_blind_now=False
        )
        engine = EngineHand(config, deck)
        record_engine_change(table, hand, engine, engine.start(), now)
        mark_changed(table)
    return hand


def _played_positions(hand: Hand) -> PlayedPositions:
    config = hand.config
    return PlayedPositions(
        button=config["button"],
        small_blind_seat=config["small_blind_seat"],
        big_blind_seat=config["big_blind_seat"],
    )


def _seat_status(seat: Seat) -> SeatStatus:
    return SeatStatus(
        seat=seat.number,
        sat_order=seat.pk,
        ready=seat.state in (State.PLAYING, State.WAITING_FOR_BIG_BLIND) and seat.stack > 0,
        waiting_for_big_blind=seat.state == State.WAITING_FOR_BIG_BLIND,
        wants_to_post_now=seat.posts_big_blind_now,
    )


# --- acting --------------------------------------------------------------------


def act(*, table_id: int, user, kind: str, amount: int | None, sequence: int, now: datetime | None = None) -> Hand:
    """Apply one player action for the seat whose turn it is (RULES 3.3)."""
    now = now or timezone.now()
    with transaction.atomic():
        table = lock_table(table_id)
        hand = _current_hand(table, sequence)
        seats = list(Seat.objects.filter(table=table).select_related("player"))
        seat = next((seat for seat in seats if seat.player_id == user.pk), None)
        if seat is None:
            raise TableError("You have no seat at this table.")
        try:
            action_kind = ActionKind(kind)
        except ValueError:
            raise TableError(f"Unknown action {kind!r}.") from None
        if action_kind is ActionKind.TIMEOUT:
            raise TableError("Only the table's clock can time a player out.")
        engine = rebuild(hand)
        events = engine.apply(Action(seat.number, action_kind, amount))
        record_engine_change(table, hand, engine, events, now, seats=seats)
        if engine.is_over:  # settling moved chips and seats: the screens read the table again
            mark_changed(table)
        else:  # the rows held here are the new state: the screens need not read them again
            held = {seat.number: seat for seat in seats}
            mark_changed(table, screens_from=lambda: table_state(table, held, hand, engine), lobby=False)
    return hand


def fold_if_leaving_player_to_act(table: Table, now: datetime | None = None) -> None:
    """A leaving player's hand is folded when its turn comes (caller holds the table lock)."""
    hand = running_hand(table)
    if hand is not None:
        engine = rebuild(hand)
        record_engine_change(table, hand, engine, [], now or timezone.now())


def _current_hand(table: Table, sequence: int) -> Hand:
    hand = running_hand(table)
    if hand is None:
        raise StaleAction("There is no hand in progress.")
    if isinstance(sequence, bool) or not isinstance(sequence, int) or sequence != hand.sequence:
        raise StaleAction("That action is out of date: the hand has moved on.")
    return hand


# --- recording -------------------------------------------------------------------


def record_engine_change(
    table: Table, hand: Hand, engine: EngineHand, events: list[dict], now: datetime, seats: list[Seat] | None = None
) -> None:
    """Append the events, fold leaving players whose turn it is, sync stacks, set the clock, settle.

    `seats`: the table's seats if the caller already read them (under the table lock)."""
    events = list(events)
    seats = list(Seat.objects.filter(table=table)) if seats is None else seats
    leaving = {seat.number for seat in seats if seat.state == State.LEAVING}
    while not engine.is_over and engine.to_act in leaving:
        events.extend(engine.apply(Action(engine.to_act, ActionKind.FOLD)))
    if not events:
        return
    # The engine replayed the whole log, so the new events follow all the logged ones.
    append_events(hand, events, first_sequence=len(engine.events) - len(events))
    hand.sequence += 1
    stacks = engine.stacks
    changed = [seat for seat in seats if seat.number in stacks and seat.stack != stacks[seat.number]]
    for seat in changed:
        seat.stack = stacks[seat.number]
    Seat.objects.bulk_update(changed, ["stack"])
    if engine.is_over:
        _finish(table, hand, engine, now)
    else:
        hand.turn_seat = engine.to_act
        hand.turn_started_at = now
        hand.turn_deadline = now + timedelta(seconds=table.time_to_act)
        hand.grace_given = False
    hand.save()


def _finish(table: Table, hand: Hand, engine: EngineHand, now: datetime) -> None:
    """Settle: final stacks are already synced; record results and apply what waited for the hand's end."""
    from .seating import cash_out_and_free  # seating imports this module

    hand.state = Hand.State.COMPLETE
    hand.ended_at = now
    hand.turn_seat = hand.turn_started_at = hand.turn_deadline = None
    for player in HandPlayer.objects.filter(hand=hand):
        player.final_stack = engine.stacks[player.seat]
        player.save(update_fields=["final_stack"])
    for seat in Seat.objects.select_for_update().filter(table=table):
        if seat.state == State.LEAVING or table.closing:
            cash_out_and_free(table, seat)
            continue
        seat.stack += seat.pending_top_up
        seat.pending_top_up = 0
        if seat.pending_sit_out or seat.stack == 0:
            seat.state = State.SITTING_OUT
            seat.pending_sit_out = False
        seat.save()
    if table.closing:
        table.is_active, table.closing = False, False
    table.next_hand_at = now + timedelta(seconds=settings.HAND_PAUSE_SECONDS)
