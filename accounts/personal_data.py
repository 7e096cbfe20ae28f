"""Everything the room holds about a player, as one zip: their profile, every ledger entry
of their bankroll, and what the other apps add (``settings.ACCOUNT_DATA_FILES``: the
tables add every hand they played, as the room's exports, and their chat lines)."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.module_loading import import_string

from cashier.models import LedgerEntry
from cashier.selectors import bankroll_balance

if TYPE_CHECKING:
    from .models import User

# One file of the archive: its name and its text.
DataFile = tuple[str, str]


def profile_json(user: User) -> str:
    profile = {
        "id": user.pk,
        "username": user.username,
        "email": user.email,
        "date_joined": user.date_joined.isoformat(),
        "last_login": user.last_login.isoformat() if user.last_login else None,
        "language": user.language,
        "muted_in_chat": user.chat_muted,
        "bankroll": bankroll_balance(user),
    }
    return json.dumps(profile, indent=2, ensure_ascii=False) + "\n"


def ledger_csv(user: User) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["entry", "time", "kind", "chips", "reference", "memo"])
    entries = LedgerEntry.objects.filter(account__user=user).select_related("transaction").order_by("id")
    for entry in entries.iterator():
        record = entry.transaction
        writer.writerow(
            [entry.pk, record.created_at.isoformat(), record.kind, entry.amount, record.reference, record.memo]
        )
    return out.getvalue()


def files_of(user: User) -> Iterator[DataFile]:
    yield "profile.json", profile_json(user)
    yield "ledger.csv", ledger_csv(user)
    for path in settings.ACCOUNT_DATA_FILES:
        more: Callable[[User], Iterable[DataFile]] = import_string(path)
        yield from more(user)


def data_archive(user: User) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, mode="w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files_of(user):
            archive.writestr(name, text.encode())
    return buffer.getvalue()
