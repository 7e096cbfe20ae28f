"""Channel layers that lose messages on purpose, as channels-redis and a restarted Redis do."""

from __future__ import annotations

import redis.exceptions
from channels.layers import InMemoryChannelLayer

_RESTARTED = {"type": "__layer_restarted__"}


class LossyChannelLayer(InMemoryChannelLayer):
    """The in-process layer, plus two faults a test turns on:

    - ``drop_groups``: group messages to these groups vanish (a message over a channel's
      capacity, or past its expiry, in channels-redis);
    - ``restart()``: every group membership is forgotten and each waiting ``receive`` fails
      with the ConnectionError a Redis killed under it raises (a Redis restarted empty).
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.drop_groups: set[str] = set()
        self.dropped: list[tuple[str, dict]] = []

    async def group_send(self, group, message):
        if group in self.drop_groups:
            self.dropped.append((group, message))
            return
        await super().group_send(group, message)

    def restart(self) -> None:
        self.groups.clear()
        for queue in self.channels.values():
            queue.put_nowait((float("inf"), _RESTARTED))

    async def receive(self, channel):
        message = await super().receive(channel)
        if message.get("type") == _RESTARTED["type"]:
            raise redis.exceptions.ConnectionError("Connection closed by server.")
        return message
