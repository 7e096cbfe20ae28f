"""The only write path for chips. Keyword-only, typed, one transaction each.

Every function moves chips between two ledger accounts through `_transfer`,
which locks both account rows in primary-key order (no deadlocks), records
one balanced transaction under an idempotency key, and updates the cached
balances. A retried call with the same key returns the original
transaction; the same key with other data raises IdempotencyConflict.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from .errors import IdempotencyConflict, InsufficientChips, InvalidAmount, ReloadNotAllowed
from .models import LedgerAccount, LedgerEntry, LedgerTransaction

Kind = LedgerTransaction.Kind


# --- accounts ---------------------------------------------------------------


def house_account() -> LedgerAccount:
    account, _ = LedgerAccount.objects.get_or_create(kind=LedgerAccount.Kind.HOUSE)
    return account


def bankroll_account(user) -> LedgerAccount:
    account, _ = LedgerAccount.objects.get_or_create(kind=LedgerAccount.Kind.BANKROLL, user=user)
    return account


def table_account(table) -> LedgerAccount:
    account, _ = LedgerAccount.objects.get_or_create(kind=LedgerAccount.Kind.TABLE, table=table)
    return account


def bankroll_balance(user) -> int:
    return LedgerAccount.objects.filter(kind=LedgerAccount.Kind.BANKROLL, user=user).values_list(
        "balance", flat=True
    ).first() or 0


# --- movements ----------------------------------------------------------------


def grant(*, user, idempotency_key: str, amount: int | None = None) -> LedgerTransaction:
    """Issue play money to a new player (the sign-up grant)."""
    amount = settings.CHIPS_SIGNUP_GRANT if amount is None else amount
    return _transfer(
        kind=Kind.GRANT,
        idempotency_key=idempotency_key,
        source=house_account(),
        destination=bankroll_account(user),
        amount=amount,
    )


@dataclass(frozen=True)
class ReloadStatus:
    eligible: bool
    amount: int
    reason: str


def reload_status(*, user, now: datetime | None = None) -> ReloadStatus:
    """Whether the player may reload now: bankroll below the threshold, not too recently."""
    now = now or timezone.now()
    balance = bankroll_balance(user)
    if balance >= settings.CHIPS_RELOAD_BELOW:
        return ReloadStatus(False, 0, f"Reloads are for bankrolls below {settings.CHIPS_RELOAD_BELOW:,} chips.")
    last = (
        LedgerTransaction.objects.filter(kind=Kind.RELOAD, entries__account__user=user)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    if last and now - last < settings.CHIPS_RELOAD_EVERY:
        wait = settings.CHIPS_RELOAD_EVERY - (now - last)
        minutes = int(wait.total_seconds() // 60) + 1
        return ReloadStatus(False, 0, f"You can reload again in {minutes} minutes.")
    return ReloadStatus(True, settings.CHIPS_SIGNUP_GRANT - balance, "")


def reload(*, user, idempotency_key: str, now: datetime | None = None) -> LedgerTransaction:
    """Top the bankroll back up to the sign-up grant, when eligible."""
    with transaction.atomic():
        # Lock the bankroll first so two reloads cannot both pass the check.
        existing = _existing(idempotency_key)
        if existing is not None:
            return existing
        LedgerAccount.objects.select_for_update().get(pk=bankroll_account(user).pk)
        status = reload_status(user=user, now=now)
        if not status.eligible:
            raise ReloadNotAllowed(status.reason)
        return _transfer(
            kind=Kind.RELOAD,
            idempotency_key=idempotency_key,
            source=house_account(),
            destination=bankroll_account(user),
            amount=status.amount,
        )


def buy_in(*, user, table, amount: int, idempotency_key: str) -> LedgerTransaction:
    """Bankroll -> table escrow, when a player takes a seat."""
    return _transfer(
        kind=Kind.BUY_IN,
        idempotency_key=idempotency_key,
        source=bankroll_account(user),
        destination=table_account(table),
        amount=amount,
    )


def top_up(*, user, table, amount: int, idempotency_key: str) -> LedgerTransaction:
    """Bankroll -> table escrow, adding chips between hands."""
    return _transfer(
        kind=Kind.TOP_UP,
        idempotency_key=idempotency_key,
        source=bankroll_account(user),
        destination=table_account(table),
        amount=amount,
    )


def cash_out(*, user, table, amount: int, idempotency_key: str) -> LedgerTransaction:
    """Table escrow -> bankroll, when a player leaves the table."""
    return _transfer(
        kind=Kind.CASH_OUT,
        idempotency_key=idempotency_key,
        source=table_account(table),
        destination=bankroll_account(user),
        amount=amount,
    )


def adjust(*, user, amount: int, reason: str, staff, idempotency_key: str) -> LedgerTransaction:
    """A staff correction: positive credits the bankroll from the house, negative debits it."""
    if not reason.strip():
        raise InvalidAmount("An adjustment needs a reason.")
    _check_amount(amount, allow_negative=True)
    source, destination = house_account(), bankroll_account(user)
    if amount < 0:
        source, destination = destination, source
    return _transfer(
        kind=Kind.ADJUSTMENT,
        idempotency_key=idempotency_key,
        source=source,
        destination=destination,
        amount=abs(amount),
        memo=reason.strip(),
        created_by=staff,
    )


# --- the one transfer -----------------------------------------------------------


def _check_amount(amount: object, *, allow_negative: bool = False) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount("Amounts are whole numbers of chips.")
    if amount == 0 or (amount < 0 and not allow_negative):
        raise InvalidAmount("The amount must be a positive number of chips.")


def _existing(idempotency_key: str) -> LedgerTransaction | None:
    return LedgerTransaction.objects.filter(idempotency_key=idempotency_key).first()


def _transfer(
    *,
    kind: str,
    idempotency_key: str,
    source: LedgerAccount,
    destination: LedgerAccount,
    amount: int,
    memo: str = "",
    created_by=None,
) -> LedgerTransaction:
    _check_amount(amount)
    if not idempotency_key:
        raise InvalidAmount("A chip movement needs an idempotency key.")
    fingerprint = hashlib.sha256(f"{kind}|{source.pk}|{destination.pk}|{amount}".encode()).hexdigest()
    with transaction.atomic():
        locked = {
            a.pk: a
            for a in LedgerAccount.objects.select_for_update().filter(pk__in=[source.pk, destination.pk]).order_by("pk")
        }
        # Checked under the locks: a concurrent twin has committed or not started.
        existing = _existing(idempotency_key)
        if existing is not None:
            if existing.fingerprint != fingerprint:
                raise IdempotencyConflict("This request was already used for a different chip movement.")
            return existing
        payer = locked[source.pk]
        if payer.kind != LedgerAccount.Kind.HOUSE and payer.balance < amount:
            raise InsufficientChips(f"Not enough chips: {payer.balance:,} available, {amount:,} needed.")
        try:
            with transaction.atomic():
                record = LedgerTransaction.objects.create(
                    kind=kind, idempotency_key=idempotency_key, fingerprint=fingerprint, memo=memo, created_by=created_by
                )
        except IntegrityError:
            # Lost a race on the key without sharing a lock (different accounts).
            raise IdempotencyConflict("This request was already used for a different chip movement.") from None
        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(transaction=record, account_id=source.pk, amount=-amount),
                LedgerEntry(transaction=record, account_id=destination.pk, amount=amount),
            ]
        )
        LedgerAccount.objects.filter(pk=source.pk).update(balance=F("balance") - amount)
        LedgerAccount.objects.filter(pk=destination.pk).update(balance=F("balance") + amount)
    return record
