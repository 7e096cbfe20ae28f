from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Players")

    def ready(self) -> None:
        # Both only connect their signal receivers.
        from django.contrib.auth.signals import user_logged_in

        from . import (
            signals,  # noqa: F401  (counts failed log-ins per address)
            socket_sessions,  # noqa: F401  (a session that ends closes its sockets)
            socket_users,  # noqa: F401  (a session's user kept for its sockets, forgotten when it ends)
        )
        from .languages import remember_language

        user_logged_in.connect(remember_language, dispatch_uid="accounts.remember_language")
