"""Registering and unregistering (RULES 8.1, 8.12): the buy-in and fee through the cashier."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext

from cashier import tournament_movements
from cashier.errors import CashierError
from tables.models import Seat
from tables.selectors.hands import dealt_into, running_hand
from tables.services.changes import mark_changed

from ..errors import TournamentError
from ..models import BlindLevel, Entry, Tournament
from . import notify
from .locks import lock_tournament
from .play import start
from .seating import random_free_seat, seat_player


def registration_refusal(tournament: Tournament, user) -> str | None:
    """Why ``user`` may not register now, or None."""
    if tournament.state == Tournament.State.RUNNING:
        if tournament.payout_percentages is not None or tournament.level > tournament.late_registration_levels:
            return gettext("Registration is closed.")
    elif tournament.state != Tournament.State.REGISTERING:
        return gettext("Registration is closed.")
    live = Entry.objects.filter(tournament=tournament, state__in=[Entry.State.REGISTERED, Entry.State.PLAYING])
    if live.filter(player=user).exists():
        return gettext("You are already registered.")
    used = Entry.objects.filter(tournament=tournament, player=user).exclude(state=Entry.State.REFUNDED).count()
    if used > tournament.re_entries:
        return gettext("You have used every entry this tournament allows.")
    if live.count() >= tournament.max_entrants:
        return gettext("The tournament is full.")
    return None


def add_on(*, user, tournament_id: int, request_id: str) -> Entry:
    """Buy the add-on's chips into the prize pool, once per entry, between hands while late
    registration is open (RULES 8.1: the pool includes the add-ons)."""
    with transaction.atomic():
        tournament, tables = lock_tournament(tournament_id)
        if not tournament.add_on_chips:
            raise TournamentError(gettext("This tournament has no add-on."))
        if tournament.state != Tournament.State.RUNNING or tournament.payout_percentages is not None:
            raise TournamentError(gettext("The add-on is offered only while late registration is open."))
        entry = Entry.objects.filter(tournament=tournament, player=user, state=Entry.State.PLAYING).first()
        if entry is None:
            raise TournamentError(gettext("You are not playing in this tournament."))
        if entry.add_on:
            raise TournamentError(gettext("You have taken the add-on already."))
        seat = Seat.objects.select_for_update(of=("self",)).get(table__in=tables, player=user)
        if dealt_into(running_hand(seat.table), seat):
            raise TournamentError(gettext("Take the add-on between hands."))
        try:
            tournament_movements.tournament_add_on(
                user=user,
                tournament=tournament,
                amount=tournament.add_on_price,
                entry=entry.reference,
                request_id=request_id,
            )
        except CashierError as error:
            raise TournamentError(str(error)) from None
        entry.add_on = True
        entry.save(update_fields=["add_on"])
        seat.stack += tournament.add_on_chips
        seat.save(update_fields=["stack"])
        mark_changed(seat.table)
        tournament.version += 1
        tournament.save(update_fields=["version"])
        notify.changed(tournament)
    return entry


def register(*, user, tournament_id: int, request_id: str, now: datetime | None = None) -> Entry:
    """Buy in (and pay the fee): one entry. A sit & go starts when it fills; a recurring one
    then opens the next. While late registration is open (RULES 8.2) the player is seated at
    once at the table with the fewest players, on a free seat drawn at random."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament, tables = lock_tournament(tournament_id)
        refusal = registration_refusal(tournament, user)
        if refusal:
            raise TournamentError(refusal)
        entry = Entry.objects.create(tournament=tournament, player=user, buy_in=tournament.buy_in, fee=tournament.fee)
        try:
            moved = tournament_movements.tournament_buy_in(
                user=user, tournament=tournament, amount=tournament.buy_in, entry=entry.reference, request_id=request_id
            )
            if moved.replayed:
                raise TournamentError(gettext("That request was already made."))
            if tournament.fee:
                tournament_movements.tournament_fee(user=user, amount=tournament.fee, entry=entry.reference)
        except CashierError as error:
            raise TournamentError(str(error)) from None
        if tournament.state == Tournament.State.RUNNING:
            _seat_late(tournament, tables, entry)
        elif tournament.is_sit_and_go and _live_count(tournament) >= tournament.max_entrants:
            start(tournament, now)
            if tournament.recurring:
                open_next(tournament)
        tournament.version += 1
        tournament.save(update_fields=["version"])
        notify.changed(tournament)
    return entry


def unregister(*, user, tournament_id: int) -> Entry:
    """Before the start: the buy-in and the fee come back (RULES 8.12), once."""
    with transaction.atomic():
        tournament, _ = lock_tournament(tournament_id)
        if tournament.state != Tournament.State.REGISTERING:
            raise TournamentError(gettext("The tournament has started: you can no longer unregister."))
        entry = Entry.objects.filter(tournament=tournament, player=user, state=Entry.State.REGISTERED).first()
        if entry is None:
            raise TournamentError(gettext("You are not registered."))
        refund(tournament, entry)
        tournament.version += 1
        tournament.save(update_fields=["version"])
        notify.changed(tournament)
    return entry


def refund(tournament: Tournament, entry: Entry) -> None:
    tournament_movements.tournament_refund(
        user=entry.player, tournament=tournament, amount=entry.buy_in, entry=entry.reference
    )
    if entry.fee:
        tournament_movements.tournament_fee_refund(user=entry.player, amount=entry.fee, entry=entry.reference)
    entry.state = Entry.State.REFUNDED
    entry.save(update_fields=["state"])


def _live_count(tournament: Tournament) -> int:
    return Entry.objects.filter(tournament=tournament, state=Entry.State.REGISTERED).count()


def _seat_late(tournament: Tournament, tables, entry: Entry) -> None:
    counts = dict(Seat.objects.filter(table__in=tables).values_list("table_id").annotate(n=Count("id")).order_by())
    open_tables = [table for table in tables if counts.get(table.pk, 0) < table.seat_count]
    if not open_tables:
        raise TournamentError(gettext("The tournament is full."))
    table = min(open_tables, key=lambda table: (counts.get(table.pk, 0), table.pk))
    seat_player(table, entry.player, tournament.starting_chips, random_free_seat(table), arriving=True)
    entry.state = Entry.State.PLAYING
    entry.starting_stack = tournament.starting_chips
    entry.save(update_fields=["state", "starting_stack"])
    mark_changed(table)


def open_next(tournament: Tournament) -> Tournament:
    """A recurring sit & go opens the next one as this one fills."""
    copy = Tournament.objects.get(pk=tournament.pk)
    levels = list(BlindLevel.objects.filter(tournament=tournament))
    copy.pk = None
    copy.state = Tournament.State.REGISTERING
    copy.level = 0
    copy.level_started_at = copy.break_until = copy.started_at = copy.finished_at = None
    copy.payout_percentages = None
    copy.break_order = []
    copy.hand_for_hand = False
    copy.next_of = tournament
    copy.version = 0
    copy.save()
    BlindLevel.objects.bulk_create(
        BlindLevel(tournament=copy, number=lv.number, small=lv.small, big=lv.big, ante=lv.ante, minutes=lv.minutes)
        for lv in levels
    )
    return copy
