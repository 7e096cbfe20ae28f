"""The tournaments' websocket routes (served in config.asgi beside the tables')."""

from django.urls import path

from .consumers import TournamentLobbyConsumer, TournamentPageConsumer

websocket_urlpatterns = [
    path("ws/tournaments/", TournamentLobbyConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentPageConsumer.as_asgi()),
]
