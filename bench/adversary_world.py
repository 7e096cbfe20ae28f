"""The database side of the frame adversary (bench/adversary.py): the world it plays in, the
steps it takes on the database (each run in a thread through ``database_sync_to_async``) and the
checks made after every step (chips, ownership, RULES 7.5 and 7.6)."""

from __future__ import annotations

import random

PLAYERS = 4
SEATS = 4


class ChecksFailed(AssertionError):
    pass


def on_db(function, *args):
    from channels.db import database_sync_to_async

    return database_sync_to_async(function)(*args)


def log_out(session) -> None:
    """What logging out does: the session's sockets are told to close, and the session is gone."""
    from accounts.socket_sessions import end_sockets, session_group

    if session is not None:
        end_sockets(session_group(session.session_key))
        session.flush()


def try_closing_account(user) -> bool:
    from accounts.closing import DepartureRefused, close_account

    try:
        close_account(user=user)
    except DepartureRefused:
        return False
    return True


def newcomer(gone, number: int):
    from accounts.services import register_player

    return register_player(username=f"adv{gone.pk}n{number}", password="x-Strong-pass-8412")


def running_hand(table):
    from tables.models import Hand

    return Hand.objects.filter(table=table, state=Hand.State.RUNNING).first()


def legal_actions(table):
    from tables.selectors.hands import rebuild

    hand = running_hand(table)
    return (None, 0) if hand is None else (rebuild(hand).legal_actions(), hand.sequence)


def likely_player(kind: str, table, players, rng: random.Random) -> int | None:
    """The index in ``players`` of one the step makes sense for: the player to act for an
    action, someone without a seat to sit, someone sitting out to come back, someone seated
    for the other seat requests."""
    from tables.models import Seat

    seated = dict(Seat.objects.filter(table=table).values_list("player_id", "state"))
    if kind == "act":
        hand = running_hand(table)
        turn = hand and Seat.objects.filter(table=table, number=hand.turn_seat).values_list("player_id", flat=True)
        wanted = set(turn or [])
    elif kind == "sit":
        wanted = {user.pk for user in players} - set(seated)
    elif kind == "sit_in":
        wanted = {user for user, state in seated.items() if state == Seat.State.SITTING_OUT}
    elif kind in ("sit_out", "leave", "top_up", "come_back"):
        wanted = set(seated)
    else:
        return None
    choices = [k for k, user in enumerate(players) if user.pk in wanted]
    return rng.choice(choices) if choices else None


def time_runs_out(table) -> None:
    from tables import services

    hand = running_hand(table)
    if hand is not None:
        services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=hand.turn_deadline)


def idle_clock(table, minutes: int) -> None:
    """The clock, ``minutes`` ahead: whoever sat out past the table's limit is stood up (RULES 7.6)."""
    from datetime import timedelta

    from django.utils import timezone

    from tables.models import Seat
    from tables.services.sitting_out import stand_up_idle_seats

    now = timezone.now() + timedelta(minutes=minutes)
    stand_up_idle_seats(table_id=table.pk, now=now)
    table.refresh_from_db(fields=["sit_out_minutes"])
    idle = Seat.objects.filter(
        table=table, state=Seat.State.SITTING_OUT, sat_out_at__lte=now - timedelta(minutes=table.sit_out_minutes)
    )
    if idle.exists():
        raise ChecksFailed(f"RULES 7.6: seats {list(idle.values_list('number', flat=True))} sat out past the limit")


def stack_left_with(table, player) -> int:
    from tables.models import SeatSession

    last = SeatSession.objects.filter(table=table, player=player, ended_at__isnull=False).order_by("-ended_at").first()
    return last.cashed_out or 0 if last else 0


def rule_problems(table) -> list[str]:
    """RULES 7.5: every seat taken within the window after leaving the same table was bought in
    for at least the stack left with (when that was above the table minimum)."""
    from datetime import timedelta

    from django.conf import settings

    from tables.models import SeatSession

    window = timedelta(minutes=settings.RETURN_TO_TABLE_MINUTES)
    problems = []
    sessions = list(
        SeatSession.objects.filter(table=table)
        .order_by("started_at", "pk")
        .values_list("pk", "player_id", "started_at", "ended_at", "buy_in", "cashed_out", "table__min_buy_in")
    )
    ended = [session for session in sessions if session[3] is not None]
    for pk, player_id, started_at, ended_at, buy_in, _, min_buy_in in sessions:
        if ended_at is not None:
            continue
        # The player's last occupancy of this table that ended within the window before this one began.
        before = [
            session for session in ended
            if session[1] == player_id and started_at - window < session[3] <= started_at
        ]  # fmt: skip
        last = max(before, key=lambda session: session[3], default=None)
        left_with = last[5] or 0 if last else 0
        if left_with > min_buy_in and buy_in < left_with:
            session = SeatSession.objects.get(pk=pk)
            problems.append(f"RULES 7.5: {session} bought in {buy_in} after leaving with {left_with}")
    return problems


def hands_played(table) -> dict:
    from tables.models import Hand, HandEvent

    return {"complete": Hand.objects.filter(table=table, state=Hand.State.COMPLETE).count(),
            "actions": HandEvent.objects.filter(hand__table=table, type__in=("player_acted", "timed_out")).count()}  # fmt: skip


def deal_next(table) -> None:
    """The clock's deal; it may have to wait for the pause after a hand whose timeout the
    clock step applied at its deadline, ahead of real time: the clock jumps to it."""
    from django.utils import timezone

    from tables import services
    from tables.models import Table

    due = Table.objects.filter(pk=table.pk).values_list("next_hand_at", flat=True).first()
    services.start_hand_if_due(table_id=table.pk, now=max(filter(None, [timezone.now(), due])))


def chip_problems(players) -> list[str]:
    """What the checks after every step found (empty: all well)."""
    from cashier.audit import run_audit

    return [*run_audit().problems, *ownership_problems(players)]


def ownership_problems(players) -> list[str]:
    """Each player owns (bankroll + stacks + top-ups waiting + the stacks they started running
    hands with) exactly what the ledger issued to them plus what they won in complete hands."""
    from django.db.models import F, Sum

    from cashier.models import LedgerEntry, LedgerTransaction
    from cashier.selectors import chips_owned_by
    from tables.models import Hand, HandPlayer

    ids = [user.pk for user in players]
    # What the room gave each player, less what a closed account gave back (its whole bankroll).
    issuing = (
        LedgerTransaction.Kind.GRANT,
        LedgerTransaction.Kind.RELOAD,
        LedgerTransaction.Kind.ADJUSTMENT,
        LedgerTransaction.Kind.CLOSURE,
    )
    issued = dict(
        LedgerEntry.objects.filter(account__user_id__in=ids, transaction__kind__in=issuing)
        .values_list("account__user_id")
        .annotate(total=Sum("amount"))
    )
    won = dict(
        HandPlayer.objects.filter(player_id__in=ids, hand__state=Hand.State.COMPLETE)
        .values_list("player_id")
        .annotate(total=Sum(F("final_stack") - F("starting_stack")))
    )
    owned_by = chips_owned_by(ids)
    problems = []
    for user in players:
        owned = owned_by[user.pk]
        expected = issued.get(user.pk, 0) + won.get(user.pk, 0)
        if owned != expected:
            problems.append(f"{user.username} owns {owned}, but was issued {issued.get(user.pk, 0)} "
                            f"and won {won.get(user.pk, 0)}")  # fmt: skip
    return problems


def setup_world(tag: str):
    """A four-seat Pot Limit table and its players (sign-up as the room does it)."""
    from accounts.services import register_player
    from tables.models import Table

    table = Table.objects.create(name=f"Adversary {tag}", variant="pot_limit", stake_small=1, stake_big=2,
                                 seat_count=SEATS, min_buy_in=40, max_buy_in=200)  # fmt: skip
    players = [register_player(username=f"adv{tag}p{k}", password="x-Strong-pass-8412") for k in range(PLAYERS)]
    return table, players
