from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and hands"

    def ready(self) -> None:
        # The services announce every change; the notify layer pushes the screens.
        from tables.realtime import notify, owner_deals

        from .services import changes, chat

        # The next deal is timed first: the screens' rendering must not eat into the pause.
        changes.subscribe(owner_deals.on_table_change)  # a cash table's next hand, dealt by its process
        changes.subscribe(notify.on_table_change)
        chat.subscribe(notify.on_chat_message)
        chat.subscribe_mutes(notify.on_mutes_changed)
