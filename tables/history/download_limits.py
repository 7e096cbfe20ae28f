"""The whole-history downloads hold a thread and a database connection while a slow reader
reads: one at a time per player, and at most ``HISTORY_DOWNLOADS_PER_HOUR`` an hour, counted
in the shared cache (so over every server process)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext

_Piece = TypeVar("_Piece")

# A download abandoned without its stream being closed frees its place after this long.
RUNNING_FOR_AT_MOST = 15 * 60


class DownloadRefused(Exception):
    """With the player's message."""


def start_download(user_id: int) -> str:
    """Take the player's one place for a download, or refuse; returns the key to release."""
    key = f"history-download-running:{user_id}"
    window = int(time.time() // 3600)
    count_key = f"history-downloads:{user_id}:{window}"
    if not cache.add(key, 1, timeout=RUNNING_FOR_AT_MOST):
        raise DownloadRefused(gettext("One whole-history download at a time: wait for the one under way to finish."))
    cache.add(count_key, 0, timeout=3600 + 60)
    try:
        count = cache.incr(count_key)
    except ValueError:  # expired between add and incr
        cache.set(count_key, 1, timeout=3600 + 60)
        count = 1
    if count > settings.HISTORY_DOWNLOADS_PER_HOUR:
        cache.delete(key)
        raise DownloadRefused(
            gettext("At most %(count)s whole-history downloads an hour: try again later.")
            % {"count": settings.HISTORY_DOWNLOADS_PER_HOUR}
        )
    return key


def released_at_the_end(pieces: Iterable[_Piece], key: str) -> Iterator[_Piece]:
    """The pieces of the download; its place is given back when the stream ends or is closed."""
    try:
        yield from pieces
    finally:
        cache.delete(key)
