"""The inbox of each socket of this process, by its channel name.

A socket's messages (its client's frames, what the channel layer brings it, what this process
tells it) wait in one queue and are handled in turn (``socket_recovery``). A change whose
groups only this process's sockets listen to is put straight into their inboxes
(``notify._hand_over``): no task or wait of the channel layer's per message.
"""

from __future__ import annotations

import asyncio

here: dict[str, asyncio.Queue] = {}
