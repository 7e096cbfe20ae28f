"""Tell the open screens that a table changed (after commit).

Every consumer of the table's group re-reads the table and renders its own
viewer's view, so the message carries only the new version number.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def table_changed(table_id: int, version: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "table.changed", "table_id": table_id, "version": version}
    async_to_sync(layer.group_send)(table_group(table_id), message)
    async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.changed", "table_id": table_id})
