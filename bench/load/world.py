"""The bots' world in the database: accounts with browser sessions, tables, seats (run in the harness process)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import transaction

BOT_PASSWORD_HASH = "!bench-bot-has-no-password"  # unusable: bots log in by session only


@dataclass
class BotAccount:
    user_id: int
    username: str
    session_key: str
    table_id: int
    seat: int


def make_session(user) -> str:
    """A logged-in browser session, created the way django.contrib.auth.login stores one."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.set_expiry(24 * 3600)
    session.save()
    return session.session_key


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
    from tables import services

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
        for s in range(1, players + 1):
            user = make_user(f"{prefix}{run}t{t}s{s}")
            services.take_seat(
                user=user,
                table_id=table.pk,
                seat_number=s,
                buy_in=table.max_buy_in,
                post_big_blind_now=True,
                request_id=uuid.uuid4().hex,
            )
            bots.append(BotAccount(user.pk, user.username, make_session(user), table.pk, s))
    return made_tables, bots


def origin_header(port: int) -> str:
    host = next((h for h in settings.ALLOWED_HOSTS if h in ("127.0.0.1", "localhost")), "127.0.0.1")
    return f"http://{host}:{port}"
