"""A socket connecting, or a player dropping and coming back, costs only that socket's own
snapshot: nobody else's screen is rendered or sent again (a reconnect storm stays cheap)."""

import pytest
from asgiref.sync import async_to_sync

from tables import notify, services
from tables.selectors.hands import rebuild

from ..support.sockets import db, felt_version, table_viewer
from ..support.tables import running_hand, sit, table_version

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def renders(monkeypatch):
    """Every time the notify layer renders a table's screens."""
    rendered = []
    render_screens = notify.screens
    monkeypatch.setattr(notify, "screens", lambda *args: rendered.append(render_screens(*args)) or rendered[-1])
    return rendered


def test_connects_and_reconnects_render_nothing_for_the_others(make_table, make_player, renders, channel_layer):
    table = make_table()
    players = [make_player() for _ in range(6)]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    services.start_hand_if_due(table_id=table.pk)
    hand = running_hand(table)
    waiting = next(p for n, p in enumerate(players, start=1) if n != hand.turn_seat)

    async def scenario():
        tabs = [await table_viewer(table, player).connect() for player in players]
        renders.clear()
        spectator = await table_viewer(table).connect()  # a connect
        dropped = next(tab for tab, player in zip(tabs, players, strict=True) if player == waiting)
        await dropped.close()  # a presence change: the player's last socket closes...
        back = await table_viewer(table, waiting).connect()  # ...and they come back
        assert renders == []  # each socket read its own snapshot; no screen rendered for the table
        version = await db(table_version, table)
        current = await db(running_hand, table)
        kind = "check" if (await db(rebuild, current)).legal_actions().can_check else "call"
        actor = players[current.turn_seat - 1]
        await db(services.act, table_id=table.pk, user=actor, kind=kind, amount=None, sequence=current.sequence)
        assert len(renders) == 1
        for tab in [t for t in tabs if t is not dropped] + [spectator, back]:
            assert felt_version(await tab.receive()) == version + 1  # the action's frame came first
            await tab.close()

    async_to_sync(scenario)()
