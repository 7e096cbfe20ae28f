from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players"

    def ready(self) -> None:
        # Both only connect their signal receivers.
        from . import (
            signals,  # noqa: F401  (counts failed log-ins per address)
            socket_sessions,  # noqa: F401  (a session that ends closes its sockets)
        )
