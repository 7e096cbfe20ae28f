"""The lobby's sockets: a table change is rendered once, by whoever made it, for all of them."""

import pytest
from asgiref.sync import async_to_sync

from tables import services
from tables.realtime import notify
from tables.selectors import lobby

from ..support.sockets import Viewer, db
from ..support.tables import sit

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lobby_reads(monkeypatch):
    """Count how often the lobby is read and rendered, wherever it happens."""
    calls = {"row": 0, "rows": 0}

    def counted(name, read):
        def call(*args, **kwargs):
            calls[name] += 1
            return read(*args, **kwargs)

        return call

    monkeypatch.setattr(notify, "lobby_row", counted("row", lobby.lobby_row))
    monkeypatch.setattr(notify, "lobby_rows", counted("rows", lobby.lobby_rows))
    return calls


def test_a_table_change_costs_the_lobby_one_render_whatever_the_number_of_sockets(
    make_table, make_player, lobby_reads, channel_layer
):
    table = make_table(name="Busy PL")

    async def scenario():
        sockets = [await Viewer("/ws/lobby/").connect() for _ in range(5)]
        await db(sit, table, await db(make_player), 3)
        for socket in sockets:
            assert "1/6" in await socket.until(f'id="lobby-table-{table.pk}"')
        assert lobby_reads == {"row": 1, "rows": 0}  # one render for five sockets, none by the sockets
        await db(services.close_table, table_id=table.pk)  # the list itself changes: rendered once too
        for socket in sockets:
            assert "No tables are open" in await socket.until('id="lobby-tables"')
        assert lobby_reads == {"row": 1, "rows": 1}
        for socket in sockets:
            await socket.close()

    async_to_sync(scenario)()


@pytest.fixture
def statements(monkeypatch):
    """Every SQL statement any thread runs (the test's own and every consumer's)."""
    from django.db.backends import utils

    count = [0]
    execute = utils.CursorWrapper._execute_with_wrappers

    def counted(self, *args, **kwargs):
        count[0] += 1
        return execute(self, *args, **kwargs)

    monkeypatch.setattr(utils.CursorWrapper, "_execute_with_wrappers", counted)
    return count


LOBBY_SOCKETS = 500


def test_with_five_hundred_lobby_sockets_a_change_costs_one_render_and_no_query_per_socket(
    make_table, make_player, lobby_reads, channel_layer, statements
):
    busy, quiet, warm = make_table(name="Busy PL"), make_table(name="Quiet PL"), make_table(name="Warm PL")

    async def scenario():
        await db(sit, warm, await db(make_player), 1)  # first calls fill the process's caches
        player = await db(make_player)
        before = statements[0]
        await db(sit, quiet, player, 1)  # the same change with no lobby socket open
        alone = statements[0] - before
        sockets = [await Viewer("/ws/lobby/").connect() for _ in range(LOBBY_SOCKETS)]  # each reads its snapshot
        lobby_reads.update(row=0, rows=0)
        player = await db(make_player)
        before = statements[0]
        await db(sit, busy, player, 3)
        for socket in sockets:
            assert "1/6" in await socket.until(f'id="lobby-table-{busy.pk}"', timeout=30)
        assert lobby_reads == {"row": 1, "rows": 0}  # one render for all five hundred
        assert statements[0] - before == alone  # what the change itself costs, nothing per socket
        for socket in sockets:
            await socket.close()

    async_to_sync(scenario)()


def test_a_lobby_connect_is_answered_and_shown_while_the_database_thread_is_busy(make_table):
    """The lobby's snapshot is read on a snapshot thread, as a table's: a loop of lobby
    connects does not queue on the database thread ahead of the players' actions."""
    from .test_connect_cost import database_thread_busy

    table = make_table()
    viewer = Viewer("/ws/lobby/")

    async def scenario():
        async with database_thread_busy():
            connected, _ = await viewer.communicator.connect(timeout=1)
            assert connected
            assert f'id="lobby-table-{table.pk}"' in await viewer.receive(timeout=2)
        await viewer.close()

    async_to_sync(scenario)()
