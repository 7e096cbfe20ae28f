"""Websocket routes (served through AllowedHostsOriginValidator and AuthMiddlewareStack in config.asgi)."""

websocket_urlpatterns: list = []
