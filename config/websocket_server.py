"""The websocket server under daphne (autobahn), made to skip work it throws away.

autobahn's ``WebSocketProtocol._connectionMade`` pretty-prints every connection's settings
(``pprint.pformat`` of some forty attributes) for a debug log line, before the logger decides
that debug lines are off. In a connect storm that is about 5 % of a daphne's CPU (py-spy at 800
tables). Its frames' debug lines do the same on a smaller scale, for every frame in and
out: each colours a function's qualified name and the peer with click (``hltype``,
``hlval``), about 3 % of a daphne's CPU at 100 tables (py-spy, 2026-12-06).
``defer_debug_formatting`` hands autobahn's log calls values that are formatted only when a
log line is written, so a server logging at info and above never formats them.
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


class LazyCall:
    """``function(value)``, worked out only when the log line is formatted."""

    __slots__ = ("function", "value")

    def __init__(self, function, value: Any) -> None:
        self.function = function
        self.value = value

    def __str__(self) -> str:
        return str(self.function(self.value))

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _deferred(function):
    def deferred(value: Any, *args, **kwargs):
        if args or kwargs:  # a colour or weight asked for: formatted as asked, now
            return function(value, *args, **kwargs)
        return LazyCall(function, value)

    deferred.deferred = function
    return deferred


def defer_debug_formatting() -> None:
    """Point autobahn's websocket protocol at the lazy ``pformat``, ``hltype`` and ``hlval``
    (once; idempotent)."""
    from autobahn.twisted import websocket
    from autobahn.websocket import protocol

    for module in (protocol, websocket):
        for name in ("hltype", "hlval"):
            current = getattr(module, name)
            if not hasattr(current, "deferred"):
                setattr(module, name, _deferred(current))

    # Its log calls only format the result into their lines; ``Timings.__str__``, which must
    # return a string, keeps the real one.
    protocol.pformat = LazyPformat  # type: ignore[assignment]
    protocol.Timings.__str__ = lambda self: pprint.pformat(self._timings)  # type: ignore[method-assign]
