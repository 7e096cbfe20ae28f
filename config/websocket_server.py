"""The websocket server under daphne (autobahn), made to skip work it throws away.

autobahn's ``WebSocketProtocol._connectionMade`` pretty-prints every connection's settings
(``pprint.pformat`` of some forty attributes) for a debug log line, before the logger decides
that debug lines are off. In a connect storm that is about 5 % of a daphne's CPU (py-spy at 800
tables). ``defer_debug_formatting`` hands autobahn's log calls a value that is formatted only
when a log line is written, so a server logging at info and above never formats it.
"""

from __future__ import annotations

import pprint
from typing import Any


class LazyPformat:
    """``pprint.pformat(value)``, worked out only when the log line is formatted."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        return pprint.pformat(self.value)

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def defer_debug_formatting() -> None:
    """Point autobahn's websocket protocol at the lazy ``pformat`` (once; idempotent)."""
    from autobahn.websocket import protocol

    # Its log calls only format the result into their lines; ``Timings.__str__``, which must
    # return a string, keeps the real one.
    protocol.pformat = LazyPformat  # type: ignore[assignment]
    protocol.Timings.__str__ = lambda self: pprint.pformat(self._timings)  # type: ignore[method-assign]
