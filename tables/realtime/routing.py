"""Websocket routes (served in config.asgi behind SameOriginWebsocketValidator, RefuseWhileAway,
RefuseWhenSwamped: tables.realtime.refusals; and CachedUserAuthMiddlewareStack: accounts.socket_users)."""

from django.urls import path

from .consumers import TableConsumer
from .lobby_socket import LobbyConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
