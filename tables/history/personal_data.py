"""What the tables hold about one player, for their data download (``accounts.personal_data``
calls ``personal_data_files`` through ``settings.ACCOUNT_DATA_FILES``).

The hands are the room's own exports, written by the whole-history exporters: every complete
hand as PokerStars text, and every Pot Limit hand as a PHH file, each as the player saw it at
the table. Beside them, as CSV: every seat they took (buy-in, chips cashed out), their
timeouts, the players they muted, and their chat lines still kept (``CHAT_RETENTION_HOURS``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from tables.models import ChatMessage, ChatMute, SeatSession, TimeoutRecord

from .history_files import _phh_named, pokerstars_history

if TYPE_CHECKING:
    from accounts.models import User


def personal_data_files(user: User) -> Iterator[tuple[str, str]]:
    yield "hands/pokerstars.txt", "".join(pokerstars_history(user))
    for name, text in _phh_named(user):
        yield f"hands/phh/{name}", text
    seats = SeatSession.objects.filter(player=user).select_related("table").order_by("id")
    yield "seats.csv", _csv(
        ["table", "seat", "buy_in", "sat_down", "left", "cashed_out"],
        ([s.table.name, s.seat_number, s.buy_in, s.started_at.isoformat(), s.ended_at and s.ended_at.isoformat(),
          s.cashed_out] for s in seats.iterator()),
    )  # fmt: skip
    timeouts = TimeoutRecord.objects.filter(player=user).select_related("hand__table").order_by("id")
    yield (
        "timeouts.csv",
        _csv(
            ["time", "table", "hand", "became"],
            ([t.created_at.isoformat(), t.hand.table.name, t.hand.number, t.became] for t in timeouts.iterator()),
        ),
    )
    mutes = ChatMute.objects.filter(owner=user).select_related("muted").order_by("id")
    yield (
        "muted_players.csv",
        _csv(["since", "player"], ([m.created_at.isoformat(), m.muted.username] for m in mutes.iterator())),
    )
    lines = ChatMessage.objects.filter(author=user).select_related("table").order_by("id")
    yield (
        "chat.csv",
        _csv(["time", "table", "text"], ([c.created_at.isoformat(), c.table.name, c.text] for c in lines.iterator())),
    )


def _csv(header: list[str], rows: Iterable[Iterable[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
