from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players"

    def ready(self):
        from . import signals  # noqa: F401  (counts failed log-ins per address)
