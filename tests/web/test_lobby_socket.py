"""The lobby's sockets: a table change is rendered once, by whoever made it, for all of them."""

import pytest
from asgiref.sync import async_to_sync

from tables import notify, services
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
