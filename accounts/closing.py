"""The end of an account: the player closes it, or staff ban the player. One service for both.

Both, in one transaction under the user row's lock:

- every step of ``settings.ACCOUNT_DEPARTURE_STEPS`` runs (the tables app stands the player
  up at every table and takes them off every waiting list, through its own services);
- the account is made inactive: log-in is refused (Django refuses inactive users), every
  open socket of the user closes (``socket_sessions``: the user's group, on commit), every
  session stops logging them in.

Closing (``close_account``) also: refuses while the player is dealt into a running hand (they
close it when the hand ends), sends every chip in the bankroll back to the house through the
cashier (one ``closure`` ledger transaction; no chip is credited to that bankroll again),
and replaces the name with ``#<id>`` everywhere (the user row, and the hands and dealer
lines that keep names as text). The row stays, with its ledger and hands: nothing cascades.
The name's key (``User.name_key``) stays too, so the name is never given again.

A ban (``ban_player``) keeps the chips and the name; a seat in a running hand is folded when
its turn comes and cashed out into the (kept) bankroll when the hand ends.
"""

from __future__ import annotations

from contextlib import suppress

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext

from cashier import services as cashier
from cashier.selectors import bankroll_balance, chips_owned

from .models import User


class DepartureRefused(Exception):
    """The account cannot end now; the message is fit to show the player (or staff)."""


class _SeatTakenMeanwhile(Exception):
    """A seat was bought at a table the closing did not lock, just before it locked the bankroll."""


ATTEMPTS = 3


def placeholder_name(user_id: int) -> str:
    """What a closed account is called from then on: no username can be this ("#" is not
    allowed in one), and it is the same in every language."""
    return f"#{user_id}"


def close_account(*, user: User) -> User:
    return _end(user, closing=True)


def ban_player(*, user: User, reason: str = "") -> User:
    """Staff ban a player (the admin records who, in its log)."""
    if user.is_staff or user.is_superuser:
        raise DepartureRefused(gettext("Staff accounts cannot be banned; remove their staff status first."))
    return _end(user, closing=False, reason=reason.strip())


def _end(user: User, *, closing: bool, reason: str = "") -> User:
    for _attempt in range(ATTEMPTS - 1):
        with suppress(_SeatTakenMeanwhile):
            return _end_once(user.pk, closing=closing, reason=reason)
    try:
        return _end_once(user.pk, closing=closing, reason=reason)
    except _SeatTakenMeanwhile:
        raise DepartureRefused(gettext("Your seats changed while closing; please try again.")) from None


def _end_once(user_id: int, *, closing: bool, reason: str) -> User:
    with transaction.atomic():
        # FOR NO KEY UPDATE: two endings of one account wait for each other, while the rows
        # that point at the user (a buy-in's ledger transaction, a seat occupancy) can still be
        # written by a request holding the bankroll's lock, which this transaction may wait for.
        user = User.objects.select_for_update(no_key=True).get(pk=user_id)
        if user.closed_at is not None:
            raise DepartureRefused(gettext("This account is already closed."))
        if not closing and user.banned_at is not None:
            raise DepartureRefused(gettext("This player is already banned."))
        placeholder = placeholder_name(user.pk) if closing else None
        for path in settings.ACCOUNT_DEPARTURE_STEPS:
            import_string(path)(user=user, closing=closing, placeholder=placeholder)
        now = timezone.now()
        if closing:
            cashier.close_bankroll(user=user)  # locks the bankroll: a buy-in from now on waits, then finds nothing
            if chips_owned(user) != bankroll_balance(user):  # a seat bought just before that lock
                raise _SeatTakenMeanwhile
            user.closed_at = now
            user.username = placeholder_name(user.pk)  # the placeholder above
            user.email = ""
            user.email_verified = False
            user.first_name = user.last_name = ""
            user.set_unusable_password()
        else:
            user.banned_at = now
            user.ban_reason = reason
        user.is_active = False
        user.save()  # is_active False: every socket of the user closes on commit
    return user
