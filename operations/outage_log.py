"""An outage of a service under the room, in the log: one warning when it starts and one when
it ends, however many attempts failed in between (no traceback: it is not a bug)."""

from __future__ import annotations

import logging
import threading
import time

from config.outages import describe


class OutageLog:
    def __init__(self, logger: logging.Logger, what: str, meanwhile: str):
        self.logger, self.what, self.meanwhile = logger, what, meanwhile
        self.since: float | None = None
        self.failures = 0
        self._lock = threading.Lock()

    def failed(self, error: BaseException) -> None:
        with self._lock:
            self.failures += 1
            if self.since is not None:
                return
            self.since = time.monotonic()
        self.logger.warning("%s: %s; %s", self.what, describe(error), self.meanwhile, extra={"outage": self.what})

    def answered(self) -> None:
        if self.since is None:  # the usual case: one attribute read
            return
        with self._lock:
            if self.since is None:
                return
            lasted, failures = time.monotonic() - self.since, self.failures
            self.since, self.failures = None, 0
        self.logger.warning(
            "%s: back after %.1f s (%d attempts failed meanwhile)", self.what, lasted, failures,
            extra={"outage": self.what},
        )  # fmt: skip
