"""Celery's worker and beat log a lost broker connection as an ERROR each time they try it
again, though reconnecting is what they are built to do and the room carries on meanwhile
(the screens catch up by version, the clock's next tick applies what is due). Those lines are
logged as warnings here, so an error in the logs still means something went wrong."""

from __future__ import annotations

import logging

# (logger, how the message starts): celery/worker/consumer/consumer.py and celery/beat.py.
RECONNECTING = (
    ("celery.worker.consumer.consumer", "consumer: Cannot connect to"),
    ("celery.beat", "beat: Connection error"),
)


class ReconnectingIsAWarning(logging.Filter):
    def __init__(self, starts: str):
        super().__init__()
        self.starts = starts

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and str(record.msg).startswith(self.starts):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def install() -> None:
    for name, starts in RECONNECTING:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ReconnectingIsAWarning) for f in logger.filters):
            logger.addFilter(ReconnectingIsAWarning(starts))
