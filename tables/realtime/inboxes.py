"""The sockets of this process, by their channel names, for what this process hands them.

A socket's messages (its client's frames, what the channel layer brings it, what this process
tells it) wait in one queue and are handled in turn (``socket_recovery``). A change whose
groups only this process's sockets listen to is handed straight to them (``publishing._hand_over``):
applied at once by a socket with nothing in hand, else put in its queue; no task or wait of
the channel layer's per message.
"""

from __future__ import annotations

from typing import Protocol


class Receiver(Protocol):
    def deliver(self, message: dict) -> None: ...


here: dict[str, Receiver] = {}
