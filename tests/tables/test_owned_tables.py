"""One owner per table (``tables.services.owned_tables``): the process that wrote a table's last
action applies the next from the rows it holds, and those rows are always the database's; a
table written by anyone else since is read again, and a change that does not commit leaves
nothing held. One writer per table (RULES 3.3: the sequence check) holds throughout."""

import contextlib
import copy
import threading
import time
import uuid

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from prometheus_client import REGISTRY

from tables import services
from tables.engine import IllegalAction
from tables.models import Hand, HandEvent, Seat, Table
from tables.selectors.hands import rebuild
from tables.services import held_engines, owned_tables, presence
from tables.services.dealing import hold_dealt_rows
from tables.services.locking import lock_table
from tables.services.turns import Turn

from ..support.tables import fold_to_the_end, running_hand, sit

pytestmark = pytest.mark.django_db


def _deal(make_player, make_table, execute, players=6):
    table = make_table()
    seated = [make_player() for _ in range(players)]
    for number, player in enumerate(seated, start=1):
        sit(table, player, number)
    with execute(execute=True):
        services.start_hand_if_due(table_id=table.pk)
    return table, dict(enumerate(seated, start=1))


def _call_or_check(table, by_seat, execute):
    hand = running_hand(table)
    kind = "check" if rebuild(hand).legal_actions().can_check else "call"
    with execute(execute=True):
        return services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind=kind, amount=None,
                            sequence=hand.sequence)  # fmt: skip


def _rows(model, instance):
    fresh = model.objects.get(pk=instance.pk)
    return model_to_dict(instance), model_to_dict(fresh)


def _assert_held_rows_are_the_databases(held):
    for model, instance in [(Table, held.table), (Hand, held.hand), *((Seat, seat) for seat in held.seats)]:
        kept, stored = _rows(model, instance)
        assert kept == stored, model


def test_the_rows_held_are_the_database_rows_after_every_action(
    make_player, make_table, django_capture_on_commit_callbacks
):
    table, by_seat = _deal(make_player, make_table, django_capture_on_commit_callbacks)
    held_after = 0
    while running_hand(table) is not None:
        _call_or_check(table, by_seat, django_capture_on_commit_callbacks)
        held = owned_tables._held.get(table.pk)
        if held is None:  # the hand ended (settled through the ORM) or its first action read the rows
            continue
        held_after += 1
        _assert_held_rows_are_the_databases(held)
        assert held.seats[0].player.username  # the players came with their seats
    assert held_after > 10


def test_a_seat_changed_by_another_request_is_read_again(make_player, make_table, django_capture_on_commit_callbacks):
    table, by_seat = _deal(make_player, make_table, django_capture_on_commit_callbacks)
    for _ in range(2):
        _call_or_check(table, by_seat, django_capture_on_commit_callbacks)
    assert table.pk in owned_tables._held
    hand = running_hand(table)
    waiting = next(n for n in by_seat if n != hand.turn_seat)
    with django_capture_on_commit_callbacks(execute=True):
        services.sit_out(user=by_seat[waiting], table_id=table.pk)  # it waits for the hand's end
    _call_or_check(table, by_seat, django_capture_on_commit_callbacks)
    held = owned_tables._held[table.pk]
    assert next(seat for seat in held.seats if seat.number == waiting).pending_sit_out
    assert held.table.version == Table.objects.get(pk=table.pk).version


def test_a_seat_written_without_the_table_lock_is_read_again(
    make_player, make_table, django_capture_on_commit_callbacks
):
    table, by_seat = _deal(make_player, make_table, django_capture_on_commit_callbacks)
    for _ in range(2):
        _call_or_check(table, by_seat, django_capture_on_commit_callbacks)
    hand = running_hand(table)
    gone = next(n for n in by_seat if n != hand.turn_seat)
    presence.player_disconnected(table_id=table.pk, user=by_seat[gone])  # one unlocked update
    _call_or_check(table, by_seat, django_capture_on_commit_callbacks)
    held = owned_tables._held[table.pk]
    assert next(seat for seat in held.seats if seat.number == gone).disconnected_at is not None


def test_a_refused_action_leaves_nothing_held_and_changes_nothing(
    make_player, make_table, django_capture_on_commit_callbacks
):
    table, by_seat = _deal(make_player, make_table, django_capture_on_commit_callbacks, players=3)
    _call_or_check(table, by_seat, django_capture_on_commit_callbacks)
    assert table.pk in owned_tables._held
    hand = running_hand(table)
    with pytest.raises(IllegalAction), django_capture_on_commit_callbacks(execute=True):
        services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind="raise", amount=10**9,
                     sequence=hand.sequence)  # fmt: skip
    assert table.pk not in owned_tables._held
    assert running_hand(table).sequence == hand.sequence
    _call_or_check(table, by_seat, django_capture_on_commit_callbacks)  # read again, and it goes on
    assert running_hand(table).sequence == hand.sequence + 1


def test_a_stale_sequence_is_refused_by_the_owner_too(make_player, make_table, django_capture_on_commit_callbacks):
    """RULES 3.3: the same action sent twice applies once, whoever holds the table."""
    table, by_seat = _deal(make_player, make_table, django_capture_on_commit_callbacks)
    _call_or_check(table, by_seat, django_capture_on_commit_callbacks)
    hand = running_hand(table)
    player = by_seat[hand.turn_seat]
    with django_capture_on_commit_callbacks(execute=True):
        services.act(table_id=table.pk, user=player, kind="call", amount=None, sequence=hand.sequence)
    with pytest.raises(services.StaleAction):
        services.act(table_id=table.pk, user=player, kind="call", amount=None, sequence=hand.sequence)
    assert running_hand(table).sequence == hand.sequence + 1


def test_no_such_table_is_refused(make_player):
    with pytest.raises(services.TableError):
        services.act(table_id=10**9, user=make_player(), kind="call", amount=None, sequence=0)


@pytest.mark.django_db(transaction=True)
def test_a_seat_written_by_a_lock_holder_while_the_action_waits_is_read_again(
    needs_postgresql, make_player, make_table
):
    """The stamp is read once the lock is held: a statement that waited for it would see the
    seat as it was before the writer it waited for committed, and take the old rows as current."""
    table = make_table()
    by_seat = {number: make_player() for number in range(1, 4)}
    for number, player in by_seat.items():
        sit(table, player, number)
    services.start_hand_if_due(table_id=table.pk)
    for _ in range(2):
        hand = running_hand(table)
        kind = "check" if rebuild(hand).legal_actions().can_check else "call"
        services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind=kind, amount=None, sequence=hand.sequence)
    assert table.pk in owned_tables._held
    hand = running_hand(table)
    gone = next(n for n in by_seat if n != hand.turn_seat)
    locked = threading.Event()

    def mark_gone_under_the_lock():
        try:
            with transaction.atomic():
                lock_table(table.pk)
                locked.set()
                time.sleep(0.5)  # the action waits for the lock meanwhile
                Seat.objects.filter(table=table, number=gone).update(disconnected_at=timezone.now())
        finally:
            connection.close()

    thread = threading.Thread(target=mark_gone_under_the_lock, daemon=True)
    thread.start()
    assert locked.wait(10)
    kind = "check" if rebuild(hand).legal_actions().can_check else "call"
    services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind=kind, amount=None, sequence=hand.sequence)
    thread.join(10)
    held = owned_tables._held[table.pk]
    assert next(seat for seat in held.seats if seat.number == gone).disconnected_at is not None


def _hand_row_updates() -> tuple[int, int]:
    """(rows of the hand table updated, of them in place) by this connection, as its statistics
    not yet reported count them (this transaction's, and those committed since it last reported)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relid = %s::regclass",
            [Hand._meta.db_table],
        )
        return cursor.fetchone()


@pytest.mark.django_db(transaction=True)
def test_an_actions_write_of_the_running_hand_is_an_update_in_place(
    needs_postgresql, make_player, make_table, django_capture_on_commit_callbacks
):
    """Every action writes the running hand's row (its sequence, whose turn, the deadline): in
    place (a heap-only tuple), not as a new row with an entry in each of the hand table's
    indexes, which an index on a column an action writes would force; and its page keeps room
    for the versions a hand's actions write, each action committed (migration 0018)."""
    table, by_seat = _deal(make_player, make_table, django_capture_on_commit_callbacks)
    written = []
    for _ in range(3):
        with transaction.atomic():  # the action's own transaction, its statistics read before it commits
            _call_or_check(table, by_seat, django_capture_on_commit_callbacks)
            written.append(_hand_row_updates())
    assert running_hand(table) is not None  # three actions, the hand still running
    # The statistics pending in this process, read before each commit: every write in place.
    # Each read holds at least its own transaction's write; those of the actions before it are
    # there too unless the process reported its statistics meanwhile (at most once a second),
    # which a slow run does. (Later ones stay in place once the page's dead versions are pruned,
    # which a transaction open elsewhere on the database, another test's, can put off: three fit
    # on the page.)
    assert all(updated == in_place >= 1 for updated, in_place in written), written


def _rows_read(*models) -> dict[str, int]:
    """Rows of each model's table read so far (by scans and through indexes), as ``_hand_row_updates`` counts."""
    names = [model._meta.db_table for model in models]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) "
            "FROM pg_stat_xact_user_tables WHERE relname = ANY(%s)",
            [names],
        )
        return dict(cursor.fetchall())


def test_the_lock_reads_its_rows_by_index_however_long_the_tables_history(
    needs_postgresql, make_player, make_table, django_capture_on_commit_callbacks
):
    """Every action's lock and stamp reads the table's running hand and its seats' players by
    index: not every hand the table ever played (its history grows by a hand a minute) nor
    every user of the room (migration 0019)."""
    from django.contrib.auth import get_user_model

    table, by_seat = _deal(make_player, make_table, django_capture_on_commit_callbacks)
    hand = running_hand(table)
    copy = {
        field.attname: getattr(hand, field.attname) for field in Hand._meta.concrete_fields if not field.primary_key
    }
    Hand.objects.bulk_create(
        Hand(**{**copy, "number": number, "state": Hand.State.COMPLETE}) for number in range(1000, 1300)
    )
    User = get_user_model()
    with transaction.atomic(), owned_tables.bound_cursor() as cursor:
        for _ in range(8):  # as every action of a connection runs it: the function's plans cached, generic
            before = _rows_read(Hand, User)
            cursor.execute(owned_tables._LOCK_AND_STAMP_SQL, [table.pk])
            assert cursor.fetchone()[2] == hand.pk
            after = _rows_read(Hand, User)
    assert after.get(Hand._meta.db_table, 0) - before.get(Hand._meta.db_table, 0) == 1
    assert after.get(User._meta.db_table, 0) - before.get(User._meta.db_table, 0) == len(by_seat)


def test_a_hands_end_is_shown_from_the_rows_settling_it_wrote(
    make_player, make_table, monkeypatch, django_capture_on_commit_callbacks
):
    """The screens of a hand's end are rendered from the rows its settlement wrote, not read
    once more: those rows are the database's (chips, seats, the table's next hand)."""
    from tables.selectors.table_state import load_table_state
    from tables.services import changes, seat_options

    table, by_seat = _deal(make_player, make_table, django_capture_on_commit_callbacks)
    # What waits for the hand's end: chips added, a player leaving, one sitting out.
    services.top_up(user=by_seat[2], table_id=table.pk, amount=1, request_id=uuid.uuid4().hex)
    seat_options.set_seat_options(user=by_seat[3], table_id=table.pk, sit_out_next_big_blind=False,
                                  leave_after_hand=True, auto_top_up_to=None)  # fmt: skip
    services.sit_out(user=by_seat[4], table_id=table.pk)
    announced = []
    monkeypatch.setattr(changes, "_listeners", [announced.append])
    while running_hand(table) is not None:
        hand = running_hand(table)
        with django_capture_on_commit_callbacks(execute=True):
            services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind="fold", amount=None,
                         sequence=hand.sequence)  # fmt: skip
    end = announced[-1]
    assert end.held is not None  # not read again
    assert 3 not in end.held().seats and end.held().seats[4].state == Seat.State.SITTING_OUT
    shown, stored = end.held(), load_table_state(table.pk)
    assert model_to_dict(shown.table) == model_to_dict(stored.table)
    assert model_to_dict(shown.hand) == model_to_dict(stored.hand)
    assert list(shown.seats) == list(stored.seats)
    for number, seat in stored.seats.items():
        assert model_to_dict(shown.seats[number]) == model_to_dict(seat)
        assert shown.seats[number].player.username == seat.player.username


def _events(hand) -> int:
    return HandEvent.objects.filter(hand=hand).count()


@pytest.mark.django_db(transaction=True)
def test_an_action_on_the_rows_held_is_one_statement_its_own_transaction(needs_postgresql, make_player, make_table):
    """The process that wrote the table's last action applies the next to the rows it holds and
    sends it with their stamp: the lock, the check and the write in one statement, committed
    with it (migration 0020), and the rows held are the database's after it."""
    table, by_seat = _deal(make_player, make_table, lambda execute: contextlib.nullcontext())
    _call_or_check(table, by_seat, lambda execute: contextlib.nullcontext())  # the deal's rows are read
    hand = running_hand(table)
    kind = "check" if rebuild(hand).legal_actions().can_check else "call"
    written = [REGISTRY.get_sample_value("omaha_action_writes_total", {"way": way}) or 0 for way in ("held", "locked")]
    with CaptureQueriesContext(connection) as queries:
        services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind=kind, amount=None, sequence=hand.sequence)
    statements = [query["sql"] for query in queries.captured_queries]
    assert len(statements) == 1 and "tables_act_if_current" in statements[0], statements
    after = [REGISTRY.get_sample_value("omaha_action_writes_total", {"way": way}) or 0 for way in ("held", "locked")]
    assert [now - before for now, before in zip(after, written, strict=True)] == [1, 0]  # what the operator sees
    assert running_hand(table).sequence == hand.sequence + 1
    _assert_held_rows_are_the_databases(owned_tables._held[table.pk])


@pytest.mark.django_db(transaction=True)
def test_rows_held_from_before_another_writer_never_write(needs_postgresql, make_player, make_table):
    """RULES 3.3, one writer per table: rows and an engine held from before another writer's
    action (another process's) take the same action again in memory, but their stamp is no
    longer the database's: nothing is written there, and under the lock it is refused as stale."""
    table, by_seat = _deal(make_player, make_table, lambda execute: contextlib.nullcontext())
    _call_or_check(table, by_seat, lambda execute: contextlib.nullcontext())
    hand = running_hand(table)
    stale_rows = copy.deepcopy(owned_tables._held[table.pk])
    stale_engine = copy.deepcopy(held_engines._held[hand.pk])
    player = by_seat[hand.turn_seat]
    services.act(table_id=table.pk, user=player, kind="call", amount=None, sequence=hand.sequence)
    logged = _events(hand)
    owned_tables._held[table.pk] = stale_rows  # as another process left them before this action
    held_engines._held[hand.pk] = stale_engine
    with pytest.raises(services.StaleAction):
        services.act(table_id=table.pk, user=player, kind="call", amount=None, sequence=hand.sequence)
    assert running_hand(table).sequence == hand.sequence + 1 and _events(hand) == logged


@pytest.mark.django_db(transaction=True)
def test_a_table_written_since_its_rows_were_held_takes_the_action_under_the_lock(
    needs_postgresql, make_player, make_table
):
    """A write by another path since the rows were held (a seat written without the table's
    lock) leaves the held rows' statement writing nothing: the action is applied once, under
    the lock, from the rows as they are."""
    table, by_seat = _deal(make_player, make_table, lambda execute: contextlib.nullcontext())
    _call_or_check(table, by_seat, lambda execute: contextlib.nullcontext())
    hand = running_hand(table)
    gone = next(n for n in by_seat if n != hand.turn_seat)
    presence.player_disconnected(table_id=table.pk, user=by_seat[gone])
    logged = _events(hand)
    kind = "check" if rebuild(hand).legal_actions().can_check else "call"
    with CaptureQueriesContext(connection) as queries:
        services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind=kind, amount=None, sequence=hand.sequence)
    statements = [query["sql"] for query in queries.captured_queries]
    assert "tables_act_if_current" in statements[0] and any("tables_lock_and_stamp" in sql for sql in statements)
    assert running_hand(table).sequence == hand.sequence + 1 and _events(hand) == logged + 1
    held = owned_tables._held[table.pk]
    assert next(seat for seat in held.seats if seat.number == gone).disconnected_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_hands_last_action_on_the_rows_held_is_settled_under_the_lock(needs_postgresql, make_player, make_table):
    """An action that ends the hand, applied to the rows held, is settled as always, in a
    transaction under the lock, once the stamp read there says the rows are still the database's."""
    table, by_seat = _deal(make_player, make_table, lambda execute: contextlib.nullcontext(), players=2)
    hand = running_hand(table)
    services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind="call", amount=None, sequence=hand.sequence)
    hand = running_hand(table)
    assert table.pk in owned_tables._held
    with CaptureQueriesContext(connection) as queries:
        services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind="fold", amount=None, sequence=hand.sequence)
    statements = [query["sql"] for query in queries.captured_queries]
    lock_and_stamp = owned_tables._LOCK_AND_STAMP_SQL.split("%s")[0]  # logged with its parameter filled in
    assert statements[0] == "BEGIN" and statements[1].startswith(lock_and_stamp), statements[:3]
    hand.refresh_from_db()
    assert hand.state == Hand.State.COMPLETE
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) == 2 * table.max_buy_in


@pytest.mark.django_db(transaction=True)
def test_an_action_after_a_timeout_the_owner_did_not_write_replays_no_log(needs_postgresql, make_player, make_table):
    """The clock's timeout is written under the lock, the rows it read not kept, the engine it
    applied to kept: the rows held before it are stale, and the next action, tried on them and
    refused there for its sequence, is applied under the lock with the engine the timeout kept."""
    table, by_seat = _deal(make_player, make_table, lambda execute: contextlib.nullcontext())
    _call_or_check(table, by_seat, lambda execute: contextlib.nullcontext())
    hand = running_hand(table)
    services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=hand.turn_deadline)
    hand = running_hand(table)
    assert owned_tables._held[table.pk].hand.sequence < hand.sequence  # held from before the timeout
    kind = "check" if rebuild(hand).legal_actions().can_check else "call"
    with CaptureQueriesContext(connection) as queries:
        services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind=kind, amount=None, sequence=hand.sequence)
    log_reads = [query["sql"] for query in queries.captured_queries if '"tables_handevent"' in query["sql"]]
    assert not any(sql.startswith("SELECT") for sql in log_reads), log_reads
    assert running_hand(table).sequence == hand.sequence + 1


@pytest.mark.django_db(transaction=True)
def test_an_illegal_action_on_the_rows_held_is_refused_under_the_lock_from_them(
    needs_postgresql, make_player, make_table
):
    """An action the held engine refuses is refused under the lock, as always (the held state
    might be stale): the rows and the engine it was tried on, unchanged by a refusal, are what
    the lock's stamp finds current, so nothing is read again and no log replayed."""
    table, by_seat = _deal(make_player, make_table, lambda execute: contextlib.nullcontext(), players=3)
    _call_or_check(table, by_seat, lambda execute: contextlib.nullcontext())
    hand = running_hand(table)
    with CaptureQueriesContext(connection) as queries, pytest.raises(IllegalAction):
        services.act(table_id=table.pk, user=by_seat[hand.turn_seat], kind="raise", amount=10**9,
                     sequence=hand.sequence)  # fmt: skip
    statements = [query["sql"] for query in queries.captured_queries]
    assert any("tables_lock_and_stamp" in sql for sql in statements), statements
    assert not any(name in sql for sql in statements for name in ('"tables_hand', '"tables_seat"')), statements
    assert running_hand(table).sequence == hand.sequence
    _call_or_check(table, by_seat, lambda execute: contextlib.nullcontext())
    assert running_hand(table).sequence == hand.sequence + 1


@pytest.mark.django_db(transaction=True)
def test_the_owners_deal_holds_its_rows_for_the_hands_first_action(needs_postgresql, make_player, make_table):
    """The process that plays the table deals its next hand (``owner_deals``: ``hold_rows``) and
    holds the rows the deal wrote, with their stamp: they are the database's, and the hand's
    first action is the one statement every later action is. The clock's deal holds nothing
    (its process shows the table to nobody)."""
    table = make_table()
    seated = {number: make_player() for number in range(1, 5)}
    for number, player in seated.items():
        sit(table, player, number)
    services.start_hand_if_due(table_id=table.pk, hold_rows=True)
    _assert_held_rows_are_the_databases(owned_tables._held[table.pk])
    hand = running_hand(table)
    kind = "check" if rebuild(hand).legal_actions().can_check else "call"
    with CaptureQueriesContext(connection) as queries:
        services.act(table_id=table.pk, user=seated[hand.turn_seat], kind=kind, amount=None, sequence=hand.sequence)
    statements = [query["sql"] for query in queries.captured_queries]
    assert len(statements) == 1 and "tables_act_if_current" in statements[0], statements
    assert running_hand(table).sequence == hand.sequence + 1

    other = make_table()
    for number in range(1, 4):
        sit(other, make_player(), number)
    services.start_hand_if_due(table_id=other.pk)
    assert other.pk not in owned_tables._held


@pytest.mark.django_db(transaction=True)
def test_a_deal_that_stands_a_seat_up_holds_no_rows(needs_postgresql, make_player, make_table):
    """RULES 7.6: the big blind passes a seat sitting out while others wait, and the deal stands
    it up: it wrote more than the rows it would hold (the cash-out, the waiting list's offer and
    count), so nothing is held and the hand's first action reads the rows."""
    table = make_table(seat_count=3)
    players = {number: make_player() for number in range(1, 4)}
    for number, player in players.items():
        sit(table, player, number)
    services.start_hand_if_due(table_id=table.pk)
    services.join_waiting_list(user=make_player(), table_id=table.pk)
    services.sit_out(user=players[1], table_id=table.pk)  # after this hand; the next big blind is seat 1's
    fold_to_the_end(table, players)
    owned_tables.forget(table.pk)
    services.start_hand_if_due(table_id=table.pk, hold_rows=True)
    assert not Seat.objects.filter(player=players[1]).exists()  # stood up
    assert table.pk not in owned_tables._held
    _call_or_check(table, {number: player for number, player in players.items() if number != 1},
                   lambda execute: contextlib.nullcontext())  # fmt: skip
    _assert_held_rows_are_the_databases(owned_tables._held[table.pk])


@pytest.mark.django_db(transaction=True)
def test_a_deal_holds_no_rows_for_seats_the_stamp_names_otherwise(needs_postgresql, make_player, make_table):
    """Seats held must be the seats the stamp names: one gone from the database under the lock
    (as a seat the deal stood up would be) leaves nothing held."""
    table = make_table()
    for number in range(1, 4):
        sit(table, make_player(), number)
    services.start_hand_if_due(table_id=table.pk)
    sit(table, make_player(), 4)
    hand = running_hand(table)
    seats = list(Seat.objects.filter(table=table).select_related("player"))
    with transaction.atomic():
        locked = lock_table(table.pk)
        Seat.objects.filter(table=table, number=4).delete()  # as the deal stands a seat up
        hold_dealt_rows(Turn(locked, hand, seats, rebuild(hand), timezone.now()))
    assert table.pk not in owned_tables._held
