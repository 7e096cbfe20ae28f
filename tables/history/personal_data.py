"""What the tables hold about one player, for their data download (``accounts.personal_data``
calls ``personal_data_files`` through ``settings.ACCOUNT_DATA_FILES``).

The hands are the room's own exports, written by the whole-history exporters: every complete
hand as PokerStars text, and every Pot Limit hand as a PHH file, each as the player saw it at
the table. Their chat lines still kept (``CHAT_RETENTION_HOURS``) come as CSV.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from tables.models import ChatMessage

from .history_files import _phh_named, pokerstars_history


def personal_data_files(user) -> Iterator[tuple[str, str]]:
    yield "hands/pokerstars.txt", "".join(pokerstars_history(user))
    for name, text in _phh_named(user):
        yield f"hands/phh/{name}", text
    yield "chat.csv", _chat_csv(user)


def _chat_csv(user) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["time", "table", "text"])
    lines = ChatMessage.objects.filter(author=user).select_related("table").order_by("id")
    for line in lines.iterator():
        writer.writerow([line.created_at.isoformat(), line.table.name, line.text])
    return out.getvalue()
