"""The sockets of a table opening together share one read of its state (``shared_reads``): a
socket takes a read that began after it joined its table's groups, never an older one."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from tables.selectors.shared_reads import SharedReads
from tables.selectors.table_state import TableState


class Reads:
    """A table read that says which read it is, on a clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0
        self.made: list[int] = []
        self.block: threading.Event | None = None
        self.started = threading.Event()
        self.fail = False

    def read(self, table_id: int):
        self.made.append(table_id)
        self.started.set()
        if self.block is not None:
            assert self.block.wait(5)
        if self.fail:
            raise RuntimeError("the database is away")
        return SimpleNamespace(table_id=table_id, read=len(self.made))

    def clock(self) -> float:
        return self.now


def test_a_socket_takes_a_read_that_began_after_it_joined_and_never_an_older_one():
    reads = Reads()
    shared = SharedReads(reads.read, reads.clock)
    first = shared.get(7, joined_at=99.0)  # begins at 100
    reads.now = 103.0
    assert shared.get(7, joined_at=100.0) is first  # joined as it began: its changes are told
    assert shared.get(7, joined_at=99.5) is first  # joined before it: waited in the queue
    assert reads.made == [7]
    newer = shared.get(7, joined_at=101.0)  # joined after it began: a change may fall between
    assert newer is not first and newer.read == 2
    assert shared.get(8, joined_at=50.0).table_id == 8  # each table its own reads
    assert reads.made == [7, 7, 8] and shared.reads == 3


def test_sockets_waiting_for_a_read_begun_after_they_joined_share_it_and_it_is_read_once():
    reads = Reads()
    reads.block = threading.Event()
    shared = SharedReads(reads.read, reads.clock)
    got: list[object] = []

    def opening(joined_at: float) -> None:
        got.append(shared.get(7, joined_at))

    reader = threading.Thread(target=opening, args=(90.0,))
    reader.start()
    assert reads.started.wait(5)  # the first socket's read is on its way
    waiters = [threading.Thread(target=opening, args=(95.0 + n,)) for n in range(3)]
    for waiter in waiters:
        waiter.start()
    reads.block.set()
    for thread in (reader, *waiters):
        thread.join(5)
    assert len(got) == 4 and all(state is got[0] for state in got)
    assert reads.made == [7]


def test_a_read_that_failed_is_taken_by_nobody():
    reads = Reads()
    reads.fail = True
    shared = SharedReads(reads.read, reads.clock)
    with pytest.raises(RuntimeError):
        shared.get(7, joined_at=99.0)
    reads.fail = False
    again = shared.get(7, joined_at=99.0)  # no read kept: read again
    assert again.read == 2


def test_a_waiter_on_a_read_that_fails_reads_for_itself():
    reads = Reads()
    reads.block = threading.Event()
    shared = SharedReads(lambda table_id: reads.read(table_id) if len(reads.made) else failing(table_id), reads.clock)
    outcome: dict[str, object] = {}

    def failing(table_id: int):
        reads.made.append(table_id)
        reads.started.set()
        assert reads.block is not None and reads.block.wait(5)
        raise RuntimeError("the database is away")

    def first() -> None:
        try:
            shared.get(7, joined_at=90.0)
        except RuntimeError as error:
            outcome["first"] = error

    def second() -> None:
        outcome["second"] = shared.get(7, joined_at=95.0)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    threads[0].start()
    assert reads.started.wait(5)
    threads[1].start()  # waits for the first read
    block, reads.block = reads.block, None
    block.set()
    for thread in threads:
        thread.join(5)
    assert isinstance(outcome["first"], RuntimeError)
    assert outcome["second"].read == 2  # type: ignore[attr-defined]  # its own read, the second made


def test_a_returning_player_is_shown_connected_on_a_copy_of_their_seat(make_player, make_table):
    """The state read may be other sockets' too: marking one viewer connected changes only
    that viewer's copy."""
    from django.utils import timezone

    from tables.models import Seat

    table, alice, bob = make_table(), make_player("alice"), make_player("bob")
    gone = timezone.now()
    seats = {
        1: Seat(table=table, number=1, player=alice, stack=100, disconnected_at=gone),
        2: Seat(table=table, number=2, player=bob, stack=100, disconnected_at=gone),
    }
    state = TableState(table, seats, None, {}, None)
    shown = state.shown_connected(alice.pk)
    assert shown.seats[1].disconnected_at is None and shown.seats[2] is seats[2]
    assert seats[1].disconnected_at == gone  # the shared state is untouched
    assert shown.table is table


def test_a_viewer_who_muted_someone_reads_the_chat_for_themselves(make_player, make_table):
    """The recent lines read for the sockets of a table are those of a viewer who muted nobody:
    a viewer who muted a player reads the lines without theirs."""
    from django.utils import timezone

    from tables.models import ChatMessage, ChatMute
    from tables.selectors.chat import chat_view

    table, alice, bob, carol = make_table(), make_player("alice"), make_player("bob"), make_player("carol")
    now = timezone.now()
    ChatMessage.objects.create(table=table, author=bob, text="from bob", created_at=now)
    ChatMessage.objects.create(table=table, author=carol, text="from carol", created_at=now)
    ChatMute.objects.create(owner=alice, muted=bob)
    shared = SharedReads(lambda table_id: ["the shared lines"])  # type: ignore[arg-type, return-value]

    def unmuted(table_id: int):
        return shared.get(table_id, joined_at=0.0)

    assert chat_view(table.pk, carol.pk, unmuted).lines == ["the shared lines"]
    assert chat_view(table.pk, None, unmuted).lines == ["the shared lines"]  # a watcher
    alices = chat_view(table.pk, alice.pk, unmuted)
    assert [line.text for line in alices.lines] == ["from carol"] and alices.muted == {bob.pk}
