from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players"

    def ready(self) -> None:
        from . import socket_sessions  # noqa: F401 - connects its signal receivers
