"""The bots' world in the database: accounts with browser sessions, tables, seats (run in the harness process)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction

from bench.sessions import logged_in_session

BOT_PASSWORD_HASH = "!bench-bot-has-no-password"  # unusable: bots log in by session only


@dataclass
class BotAccount:
    user_id: int
    username: str
    session_key: str
    table_id: int
    seat: int


def make_session(user) -> str:
    """The key of a logged-in browser session for ``user``, lasting a day (a bot's cookie)."""
    return logged_in_session(user, expiry=24 * 3600).session_key


def make_user(username: str):
    """A player as sign-up makes one (account + grant), without the slow password hash."""
    from accounts.models import User
    from cashier import services as cashier

    with transaction.atomic():
        user = User.objects.create(username=username, password=BOT_PASSWORD_HASH)
        cashier.grant(user=user)
    return user


def make_table(
    name: str,
    *,
    variant: str = "pot_limit",
    seats: int = 6,
    action_seconds: int = 2,
    countdown_seconds: int = 1,
    reconnect_grace_seconds: int = 1,
):
    from tables.models import Table

    if variant == "limit":
        stakes = {"stake_small": 2, "stake_big": 4, "min_buy_in": 40, "max_buy_in": 400}
    else:
        stakes = {"stake_small": 1, "stake_big": 2, "min_buy_in": 40, "max_buy_in": 200}
    table = Table(
        name=name,
        variant=variant,
        seat_count=seats,
        action_seconds=action_seconds,
        countdown_seconds=countdown_seconds,
        reconnect_grace_seconds=reconnect_grace_seconds,
        **stakes,
    )
    table.full_clean()
    table.save()
    return table


def seat_bots(table, players: int, username_prefix: str) -> list:
    """``players`` new accounts seated at ``table`` in seats 1..players, each buying in at the
    table's maximum and posting a big blind now; the users, in seat order."""
    from tables import services

    users = []
    for seat in range(1, players + 1):
        user = make_user(f"{username_prefix}s{seat}")
        services.take_seat(
            user=user,
            table_id=table.pk,
            seat_number=seat,
            buy_in=table.max_buy_in,
            post_big_blind_now=True,
            request_id=uuid.uuid4().hex,
        )
        users.append(user)
    return users


def build_world(
    *,
    tables: int,
    seats_per_table: int,
    players_per_table: int | None = None,
    prefix: str = "bench",
    action_seconds: int = 2,
    countdown_seconds: int = 1,
    variant_mix: bool = True,
) -> tuple[list, list[BotAccount]]:
    """T tables, each with ``players_per_table`` bots seated (buy-in at the maximum, posting a big blind now)."""
    from django.utils import timezone

    from tables.models import Seat

    players = players_per_table or seats_per_table
    run = uuid.uuid4().hex[:6]
    made_tables, bots = [], []
    for t in range(tables):
        variant = "limit" if (variant_mix and t % 2) else "pot_limit"
        table = make_table(
            f"{prefix}-{run}-{t:04d}",
            variant=variant,
            seats=seats_per_table,
            action_seconds=action_seconds,
            countdown_seconds=countdown_seconds,
        )
        made_tables.append(table)
        # Seated here, not at their screens yet (committed together, so the clock never sees
        # two of them ready and at their screens): the table deals once one of them opens it.
        with transaction.atomic():
            seated = seat_bots(table, players, f"{prefix}{run}t{t}")
            Seat.objects.filter(table=table).update(disconnected_at=timezone.now())
        for seat, user in enumerate(seated, start=1):
            bots.append(BotAccount(user.pk, user.username, make_session(user), table.pk, seat))
    return made_tables, bots
