"""The tournament lobby over its socket, and the alert each player's open pages get when their
tournament starts (RULES 8.2: seats drawn, the players at their tables)."""

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter

from bench.sessions import logged_in_session
from tables.realtime.routing import websocket_urlpatterns as table_routes
from tournaments.models import Tournament
from tournaments.realtime import push
from tournaments.realtime.routing import websocket_urlpatterns as tournament_routes

from ..support.sockets import Viewer, db
from ..tournaments.support import make_tournament, register, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


class RoomViewer(Viewer):
    """A socket on any of the room's routes, the tournaments' included (as config.asgi serves them)."""

    def __init__(self, path, user=None):
        super().__init__(path, user)
        from channels.testing import WebsocketCommunicator

        scope = self.communicator.scope
        self.communicator = WebsocketCommunicator(URLRouter([*table_routes, *tournament_routes]), path)
        self.communicator.scope.update({"user": scope["user"], "client": scope["client"]})


@pytest.fixture
def renders(monkeypatch):
    """How often the lobby's rows are rendered, wherever it happens."""
    count = [0]
    render = push.render_to_string

    def counted(name, context=None):
        if name == "tournaments/_lobby_rows.html":
            count[0] += 1
        return render(name, context)

    monkeypatch.setattr(push, "render_to_string", counted)
    return count


def test_the_lobby_follows_registrations_live_rendered_once_per_language(make_player, channel_layer, renders):
    tournament = make_tournament(name="Live SNG", max_entrants=3)
    alice, bob = make_player(), make_player()

    async def scenario():
        watchers = [await RoomViewer("/ws/tournaments/").connect() for _ in range(3)]
        mine = await RoomViewer("/ws/tournaments/", alice).connect()
        assert "Live SNG" in mine.frames[0] and "0/3" in mine.frames[0]
        renders[0] = 0
        await db(register, tournament, alice)
        for socket in [*watchers, mine]:
            frame = await socket.until("1/3")
            assert '<td class="prize-pool">100</td>' in frame  # alice's buy-in; her fee is the house's
        assert renders[0] == 2  # once per language of the room, whatever the number of sockets
        assert "You are registered" in mine.frames[-1]
        assert all("You are registered" not in socket.frames[-1] for socket in watchers)
        await db(register, tournament, bob)
        assert "You are registered" in await mine.until("2/3")  # another's registration keeps alice's mark
        for socket in [*watchers, mine]:
            await socket.close()

    async_to_sync(scenario)()


def test_the_start_alerts_every_open_page_of_each_player_with_their_table(make_player, channel_layer):
    """RULES 8.2: the tournament starts with its players seated; each is told, on any page, where."""
    tournament = make_tournament(name="Alert SNG", max_entrants=3)
    players = [make_player() for _ in range(3)]
    watcher = make_player()

    async def scenario():
        pages = {
            "lobby": await RoomViewer("/ws/lobby/", players[0]).connect(),
            "tournaments": await RoomViewer("/ws/tournaments/", players[1]).connect(),
            "tournament": await _page(f"/ws/tournaments/{tournament.pk}/", players[2]),
        }
        other = await RoomViewer("/ws/tournaments/", watcher).connect()
        for player in players:
            await db(register, tournament, player)
        [table] = await db(tables_of, tournament)
        for socket in pages.values():
            alert = await socket.until('id="room-alert"')
            assert "Alert SNG has started" in alert and f'href="/tables/{table.pk}/"' in alert
            assert 'data-sound="/static/audio/turn.wav"' in alert
        # Those not in it are not alerted: their socket's next frame is the lobby's next change.
        running = await other.until('data-state="running"')
        assert all('id="room-alert"' not in frame for frame in other.frames)
        assert "Open my table" not in running
        assert "Open my table" in await pages["tournaments"].until('data-state="running"')
        for socket in [*pages.values(), other]:
            await socket.close()

    async_to_sync(scenario)()
    assert Tournament.objects.get(pk=tournament.pk).state == Tournament.State.RUNNING


async def _page(path, user):
    """A tournament page's socket: it sends no snapshot, only alerts."""
    viewer = RoomViewer(path, user)
    viewer.communicator.scope["session"] = await db(logged_in_session, user)
    connected, _ = await viewer.communicator.connect()
    assert connected
    return viewer


def test_spanish_sockets_read_the_alert_and_the_lobby_in_spanish(make_player, channel_layer):
    tournament = make_tournament(name="Torneo", max_entrants=2)
    alice, bob = make_player(), make_player()
    alice.language = "es"
    alice.save(update_fields=["language"])

    async def scenario():
        socket = await RoomViewer("/ws/tournaments/", alice).connect()
        await db(register, tournament, alice)
        assert "Estás inscrito" in await socket.until("1/2")
        await db(register, tournament, bob)
        alert = await socket.until('id="room-alert"')
        assert "ha empezado" in alert
        await socket.close()

    async_to_sync(scenario)()
