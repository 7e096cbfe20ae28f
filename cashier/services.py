"""The only write path for chips, with ``tournament_movements`` (the tournaments' own).
Keyword-only, typed, one transaction each.

Every function moves chips between two ledger accounts through `transfer`,
which locks both account rows in primary-key order (no deadlocks), records
one balanced transaction, and updates the cached balances.

Idempotency is the server's: each function builds its transaction's key from
what the chips pay for, never from a client's text. A buy-in and a cash-out
belong to one seat occupancy (at most one of each), a top-up to one occupancy
and one request, a reload or a staff adjustment to one player and one request.
The same request again finds its transaction and moves nothing
(``Transfer.replayed``); the same key with other data raises
IdempotencyConflict. When a player closes their account, their whole bankroll goes back to the house
(``close_bankroll``, once per player) and no chip comes into that bankroll again
(``AccountClosed``). A request id (the nonce of a server-made one,
``accounts.request_ids``) pays for one movement of the user who made it: used
again for anything else (another seat, another form), it raises
RequestAlreadyUsed.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext

from config.numbers import chips
from operations import metrics

from .errors import (
    AccountClosed,
    IdempotencyConflict,
    InsufficientChips,
    InvalidAmount,
    InvalidRequest,
    ReloadNotAllowed,
    RequestAlreadyUsed,
)
from .models import LedgerAccount, LedgerEntry, LedgerTransaction
from .selectors import reload_status

if TYPE_CHECKING:
    from accounts.models import User
    from tables.models import Table
    from tournaments.models import Tournament

Kind = LedgerTransaction.Kind

# Request ids are made by the server (a UUID per form or socket); anything else is refused.
_REQUEST_ID = re.compile(r"[0-9A-Za-z-]{8,64}")
# What table movements pay for: one seat occupancy of the tables app.
_OCCUPANCY = re.compile(r"seat-session:[1-9][0-9]*")


@dataclass(frozen=True)
class Transfer:
    """One chip movement. ``replayed``: the request was already applied; nothing moved this time."""

    transaction: LedgerTransaction
    amount: int
    replayed: bool


# --- accounts ---------------------------------------------------------------


def house_account() -> LedgerAccount:
    account, _ = LedgerAccount.objects.get_or_create(kind=LedgerAccount.Kind.HOUSE)
    return account


def bankroll_account(user: User) -> LedgerAccount:
    account, _ = LedgerAccount.objects.get_or_create(kind=LedgerAccount.Kind.BANKROLL, user=user)
    return account


def locked_bankroll_balance(user: User) -> int:
    """The player's bankroll, its row locked for the rest of the caller's transaction: no
    other movement can spend it before the caller's own (which locks it again, harmlessly)."""
    return LedgerAccount.objects.select_for_update().get(pk=bankroll_account(user).pk).balance


def table_account(table: Table) -> LedgerAccount:
    account, _ = LedgerAccount.objects.get_or_create(kind=LedgerAccount.Kind.TABLE, table=table)
    return account


def tournament_account(tournament: Tournament) -> LedgerAccount:
    """The tournament's prize pool: its buy-ins, re-entries and add-ons (RULES 8.1)."""
    account, _ = LedgerAccount.objects.get_or_create(kind=LedgerAccount.Kind.TOURNAMENT, tournament=tournament)
    return account


# --- movements ----------------------------------------------------------------


def grant(*, user: User, amount: int | None = None) -> Transfer:
    """Issue play money to a new player (the sign-up grant): once per player."""
    amount = settings.CHIPS_SIGNUP_GRANT if amount is None else amount
    reference = f"user:{user.pk}"
    return transfer(
        kind=Kind.GRANT,
        key=f"grant:{reference}",
        reference=reference,
        source=house_account(),
        destination=bankroll_account(user),
        amount=amount,
    )


def reload(*, user: User, request_id: str, now: datetime | None = None) -> Transfer:
    """Bring everything the player owns back up to the sign-up grant, when eligible."""
    reference = f"user:{user.pk}"
    key = f"reload:{reference}:{checked_request_id(request_id)}"
    with transaction.atomic():
        # Lock the bankroll first so two reloads cannot both pass the check.
        LedgerAccount.objects.select_for_update().get(pk=bankroll_account(user).pk)
        existing = LedgerTransaction.objects.filter(idempotency_key=key).first()
        if existing is not None:  # the key is this player's own: the same request again
            return Transfer(existing, _credited(existing, user), replayed=True)
        status = reload_status(user=user, now=now)
        if not status.eligible:
            raise ReloadNotAllowed(status.reason)
        return transfer(
            kind=Kind.RELOAD,
            key=key,
            reference=reference,
            source=house_account(),
            destination=bankroll_account(user),
            amount=status.amount,
            requested_by=user,
            request_id=request_id,
        )


def buy_in(*, user: User, table: Table, amount: int, occupancy: str, request_id: str) -> Transfer:
    """Bankroll -> table escrow, when a player takes a seat: one buy-in per seat occupancy."""
    return transfer(
        kind=Kind.BUY_IN,
        key=f"buy-in:{_checked_occupancy(occupancy)}",
        reference=occupancy,
        source=bankroll_account(user),
        destination=table_account(table),
        amount=amount,
        requested_by=user,
        request_id=checked_request_id(request_id),
    )


def top_up(*, user: User, table: Table, amount: int, occupancy: str, request_id: str) -> Transfer:
    """Bankroll -> table escrow, adding chips to one seat occupancy for one request."""
    return transfer(
        kind=Kind.TOP_UP,
        key=f"top-up:{_checked_occupancy(occupancy)}:{checked_request_id(request_id)}",
        reference=occupancy,
        source=bankroll_account(user),
        destination=table_account(table),
        amount=amount,
        requested_by=user,
        request_id=request_id,
    )


def cash_out(*, user: User, table: Table, amount: int, occupancy: str) -> Transfer:
    """Table escrow -> bankroll, when a seat occupancy ends: at most once per occupancy."""
    return transfer(
        kind=Kind.CASH_OUT,
        key=f"cash-out:{_checked_occupancy(occupancy)}",
        reference=occupancy,
        source=table_account(table),
        destination=bankroll_account(user),
        amount=amount,
    )


def adjust(*, user: User, amount: int, reason: str, staff: User, request_id: str) -> Transfer:
    """A staff correction: positive credits the bankroll from the house, negative debits it."""
    if not reason.strip():
        raise InvalidAmount(gettext("An adjustment needs a reason."))
    _check_amount(amount, allow_negative=True)
    source, destination = house_account(), bankroll_account(user)
    if amount < 0:
        source, destination = destination, source
    return transfer(
        kind=Kind.ADJUSTMENT,
        key=f"adjustment:staff-{staff.pk}:{checked_request_id(request_id)}",
        reference=f"user:{user.pk}",
        source=source,
        destination=destination,
        amount=abs(amount),
        memo=reason.strip(),
        requested_by=staff,
        request_id=request_id,
    )


def close_bankroll(*, user: User) -> Transfer | None:
    """Bankroll -> house, everything in it, when the player closes their account: once per
    player; afterwards nothing is credited to that bankroll again. None when it was empty.
    The mark of a closed account is the caller's ``User.closed_at``, set in the same
    transaction: ``transfer`` reads it under the bankroll's lock, which this holds."""
    account = bankroll_account(user)
    with transaction.atomic():
        locked = LedgerAccount.objects.select_for_update().get(pk=account.pk)
        if locked.balance == 0:
            return None
        return transfer(
            kind=Kind.CLOSURE,
            key=_closure_key(user.pk),
            reference=f"user:{user.pk}",
            source=locked,
            destination=house_account(),
            amount=locked.balance,
            requested_by=user,
        )


def _closure_key(user_id: int) -> str:
    return f"closure:user:{user_id}"


def _bankroll_is_closed(account: LedgerAccount) -> bool:
    from django.contrib.auth import get_user_model

    if account.user_id is None:  # not a player's bankroll (a filter on pk=None finds none either)
        return False
    # Read under the bankroll's lock, which the closing transaction holds until it commits.
    return get_user_model().objects.filter(pk=account.user_id, closed_at__isnull=False).exists()


# --- the one transfer and its checks ---------------------------------------------


def checked_reference(reference: object, pattern: re.Pattern[str]) -> str:
    if not isinstance(reference, str) or not pattern.fullmatch(reference):
        raise InvalidRequest(
            gettext("A chip movement must name what it pays for; got %(reference)r.") % {"reference": reference}
        )
    return reference


def _check_amount(amount: object, *, allow_negative: bool = False) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(gettext("Amounts are whole numbers of chips."))
    if amount == 0 or (amount < 0 and not allow_negative):
        raise InvalidAmount(gettext("The amount must be a positive number of chips."))


def checked_request_id(request_id: object) -> str:
    if not isinstance(request_id, str) or not _REQUEST_ID.fullmatch(request_id):
        raise InvalidRequest(gettext("That request is not valid: reload the page and try again."))
    return request_id


def _checked_occupancy(occupancy: object) -> str:
    if not isinstance(occupancy, str) or not _OCCUPANCY.fullmatch(occupancy):
        raise InvalidRequest(
            gettext("A chip movement must name what it pays for; got %(occupancy)s.") % {"occupancy": repr(occupancy)}
        )
    return occupancy


def _credited(record: LedgerTransaction, user: User) -> int:
    return record.entries.get(account__kind=LedgerAccount.Kind.BANKROLL, account__user=user).amount


def transfer(
    *,
    kind: str,
    key: str,
    reference: str,
    source: LedgerAccount,
    destination: LedgerAccount,
    amount: int,
    memo: str = "",
    requested_by: User | None = None,
    request_id: str | None = None,
) -> Transfer:
    _check_amount(amount)
    fingerprint = hashlib.sha256(
        f"{kind}|{source.pk}|{destination.pk}|{amount}|{reference}|{memo}".encode()
    ).hexdigest()
    with transaction.atomic():
        locked = {
            a.pk: a
            for a in LedgerAccount.objects.select_for_update().filter(pk__in=[source.pk, destination.pk]).order_by("pk")
        }
        # Checked under the locks: a concurrent twin has committed or not started.
        existing = LedgerTransaction.objects.filter(idempotency_key=key).first()
        if existing is not None:
            if existing.fingerprint != fingerprint:
                raise IdempotencyConflict(gettext("This request was already used for a different chip movement."))
            return Transfer(existing, amount, replayed=True)
        if (
            request_id is not None
            and LedgerTransaction.objects.filter(created_by=requested_by, request_id=request_id).exists()
        ):
            raise RequestAlreadyUsed(gettext("That request was already made."))
        payee = locked[destination.pk]
        if payee.kind == LedgerAccount.Kind.BANKROLL and _bankroll_is_closed(payee):
            raise AccountClosed(gettext("This account is closed: no chips can be added to it."))
        payer = locked[source.pk]
        if payer.kind != LedgerAccount.Kind.HOUSE and payer.balance < amount:
            raise InsufficientChips(
                gettext("Not enough chips: %(available)s available, %(needed)s needed.")
                % {"available": chips(payer.balance), "needed": chips(amount)}
            )
        try:
            with transaction.atomic():
                record = LedgerTransaction.objects.create(
                    kind=kind,
                    idempotency_key=key,
                    fingerprint=fingerprint,
                    reference=reference,
                    memo=memo,
                    created_by=requested_by,
                    request_id=request_id,
                )
        except IntegrityError:
            # Lost a race on the key or the request without sharing a lock (different accounts).
            raise RequestAlreadyUsed(gettext("That request was already made.")) from None
        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(transaction=record, account_id=source.pk, amount=-amount),
                LedgerEntry(transaction=record, account_id=destination.pk, amount=amount),
            ]
        )
        LedgerAccount.objects.filter(pk=source.pk).update(balance=F("balance") - amount)
        LedgerAccount.objects.filter(pk=destination.pk).update(balance=F("balance") + amount)
    metrics.LEDGER_MOVEMENTS.labels(kind).inc()
    return Transfer(record, amount, replayed=False)
