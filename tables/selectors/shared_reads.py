"""A table's state, and its recent chat, read once for the sockets of it that wait to read
them together.

When a process comes back (restarted, or its sockets all moved to it), every socket of each
of its tables asks for the same state on the snapshot threads, one after another, and each
read costs its statements and their rows again. A socket may show a read that *started* after
it joined its table's groups (``consumers.open_socket`` joins them before it reads): every
change (and chat line) committed after that read began reaches it as a message, so the read
shows nothing older than what it will be told next. The sockets that waited in the snapshot
threads' queue while another socket of their table read it (or are waiting for such a read to
finish) take that read; a socket that joined after the last read began reads again.

What is taken is shared: its readers render from it and never change it (as with the
replays ``table_state`` keeps).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar, cast

from tables.models import ChatMessage

from .chat import recent_messages
from .table_state import TableState, load_table_state

T = TypeVar("T")

KEPT_TABLES = 1024  # the tables whose last read is kept for the sockets still to take it


@dataclass
class _Read(Generic[T]):
    started: float  # stamped before its statements are sent
    done: threading.Event = field(default_factory=threading.Event)
    value: T | None = None
    failed: bool = False


class SharedReads(Generic[T]):
    """``read`` of a table, shared by the readers that joined the table before it began."""

    def __init__(self, read: Callable[[int], T], clock: Callable[[], float] = time.monotonic) -> None:
        self._read = read
        self._clock = clock
        self._lock = threading.Lock()
        self._reads: OrderedDict[int, _Read[T]] = OrderedDict()
        self.reads = 0  # the reads made (a figure for tests and benchmarks)

    def get(self, table_id: int, joined_at: float) -> T:
        """The table's read, begun at or after ``joined_at`` (this ``clock``'s time): the last
        read of the table if it began since then, else a new one."""
        with self._lock:
            read = self._reads.get(table_id)
            taken = read is not None and read.started >= joined_at
            if not taken:
                read = _Read[T](self._clock())
                self._reads[table_id] = read
                while len(self._reads) > KEPT_TABLES:
                    self._reads.popitem(last=False)
            self._reads.move_to_end(table_id)
        assert read is not None
        if taken:
            read.done.wait()
            if not read.failed:
                return cast(T, read.value)  # set before ``done``
            return self._read(table_id)  # the read it waited for failed: its own, which says why
        self.reads += 1
        try:
            value = self._read(table_id)
        except BaseException:
            read.failed = True
            with self._lock:
                if self._reads.get(table_id) is read:
                    del self._reads[table_id]
            read.done.set()
            raise
        read.value = value
        read.done.set()
        return value


table_states: SharedReads[TableState | None] = SharedReads(load_table_state)  # None: no such table
recent_chats: SharedReads[list[ChatMessage]] = SharedReads(recent_messages)  # no player muted
