"""Who listens to a table in the other server processes, as this process last asked.

A change's public fragments are rendered in the languages some socket of the table reads
(``listening_languages``: this process's sockets, and the other processes' as the cache says),
and a change's messages are handed to this process's sockets without Redis when no other
process subscribes to their groups (``listened_elsewhere``: ``PUBSUB NUMSUB``). Both answers
are kept per table until a socket of the table opens somewhere as a new listener (the first
there in its language, or of its player): its process tells every process with a socket of the
table (a ``listeners.joined`` notice to the table's group, ``consumers``), and each forgets what
it kept (``listeners_joined``); else for at most ELSEWHERE_SECONDS. With a table's sockets in
one process (the proxy hashes by table) the answer is nearly always "none", and asking it on
every change was two trips per action. Where no notice reaches (a process with no socket of
the table: the celery worker) the languages are kept UNNOTIFIED_SECONDS only, and who
subscribes is asked each time.
"""

from __future__ import annotations

import asyncio
import time
from typing import cast

from config.shared_awaits import shared_task
from tables.presentation.screens import room_languages
from tables.realtime import sockets

ELSEWHERE_SECONDS = 30.0
UNNOTIFIED_SECONDS = 1.0
ELSEWHERE_KEPT = 10_000
_elsewhere: dict[int, dict[object, tuple[float, object]]] = {}  # table -> what was asked -> (when, answer)
_NOT_KEPT = object()


def listening_languages(table_id: int) -> list[str]:
    """The languages some open socket of the table reads it in, over every server process
    (``sockets``): the public fragments are rendered in those only. A socket that opens in
    another language between two changes reads its snapshot on the next (``consumers``)."""
    keys = {language: sockets.table_language_key(table_id, language) for language in room_languages()}
    here = sockets.counts.here(keys.values())
    elsewhere = tuple(key for key in keys.values() if not here[key])  # asked of the cache only when needed
    # Kept long only where a new listener's notice reaches: a process with a socket of the table.
    notified = any(here.values())
    totals = {**here, **(_read_elsewhere(table_id, elsewhere, notified) if elsewhere else {})}
    return [language for language, key in keys.items() if totals[key] > 0]


def _kept_for(table_id: int) -> dict[object, tuple[float, object]]:
    """The answers kept for the table: taken before asking, so an answer asked while a socket
    opened elsewhere (its notice forgot them meanwhile) is not kept (``_keep``)."""
    if table_id not in _elsewhere and len(_elsewhere) >= ELSEWHERE_KEPT:
        _elsewhere.clear()
    return _elsewhere.setdefault(table_id, {})


def _kept(kept: dict[object, tuple[float, object]], asked: object, seconds: float | None = None) -> object:
    found = kept.get(asked)
    if found is None or time.monotonic() - found[0] >= (ELSEWHERE_SECONDS if seconds is None else seconds):
        return _NOT_KEPT
    return found[1]


def _keep(table_id: int, kept: dict[object, tuple[float, object]], asked: object, answer: object) -> None:
    if _elsewhere.get(table_id) is kept:
        kept[asked] = (time.monotonic(), answer)


def listeners_joined(table_id: int) -> None:
    """A socket of the table opened somewhere as a new listener (a language, a player's group):
    what other processes listen to is asked again on the table's next change."""
    _elsewhere.pop(table_id, None)


# The notices of new listeners not yet sent, by table: every socket of the table that opens as
# a new listener before one is sent is told by it (it joined its groups first), so a process
# whose sockets come back all at once sends one per table, not one per socket.
_notices: dict[int, asyncio.Task] = {}


async def tell_others_joined(layer, table_id: int, group: str) -> None:
    """Tell every process with a socket of the table that a new listener joined here (after the
    socket joined its groups): the notice not yet sent for the table if there is one, else a
    new one, sent once the sockets opening in this turn of the loop have joined too."""
    notice = _notices.get(table_id)
    if notice is None or notice.get_loop() is not asyncio.get_running_loop():
        notice = _notices[table_id] = shared_task(_notify(layer, table_id, group))
    await asyncio.shield(notice)  # a socket closed meanwhile does not take the notice with it


async def _notify(layer, table_id: int, group: str) -> None:
    await asyncio.sleep(0)
    if _notices.get(table_id) is asyncio.current_task():
        del _notices[table_id]  # from now on a new listener needs a notice of its own
    await layer.group_send(group, {"type": "listeners.joined", "table_id": table_id})


def forget_listeners() -> None:
    """The channel layer was away (its subscriptions, and notices, lost): ask everything again."""
    _elsewhere.clear()


def _read_elsewhere(table_id: int, keys: tuple, notified: bool) -> dict:
    kept = _kept_for(table_id)
    answer = _kept(kept, keys, None if notified else UNNOTIFIED_SECONDS)
    if answer is not _NOT_KEPT:
        return cast(dict, answer)
    totals = sockets.counts.totals(keys)
    _keep(table_id, kept, keys, totals)
    return totals


async def listened_elsewhere(shard, table_id: int, channels: list[str], kept_here: bool) -> list[bool]:
    """For each channel, whether a connection other than this process's subscribes to it: the
    answer kept for the table, else one ``PUBSUB NUMSUB`` for all those not kept. Kept only in a
    process that subscribes to the table's group (``kept_here``), where a new listener's notice
    reaches (the celery worker, or a process none of whose sockets show the table, asks each time)."""
    kept = _kept_for(table_id) if kept_here else {}
    answers = {channel: _kept(kept, channel) for channel in channels}
    asked = [channel for channel, answer in answers.items() if answer is _NOT_KEPT]
    if asked:
        counts = await shard._redis.pubsub_numsub(*asked)
        for channel, (_name, count) in zip(asked, counts, strict=True):
            answers[channel] = count - (1 if channel in shard._subscribed_to else 0) > 0
            if kept_here:
                _keep(table_id, kept, channel, answers[channel])
    return [bool(answers[channel]) for channel in channels]


def only_here(table_id: int, channels: list[str]) -> bool:
    """Whether every one of ``channels`` is known, as kept, to be listened to in this process only
    (``_kept``'s answer, for every group of every change: the clock read once)."""
    kept = _elsewhere.get(table_id)
    if not kept:
        return False
    asked_after = time.monotonic() - ELSEWHERE_SECONDS
    for channel in channels:
        found = kept.get(channel)
        if found is None or found[0] <= asked_after or found[1] is not False:
            return False
    return True
