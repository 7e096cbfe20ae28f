"""Celery's worker and beat log a lost broker connection as an ERROR each time they try it
again, though reconnecting is what they are built to do and the room carries on meanwhile
(the screens catch up by version, the clock's next tick applies what is due). Those lines are
logged as warnings here, so an error in the logs still means something went wrong."""

from __future__ import annotations

import logging

from celery import signals

from config.outages import OUTAGES

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


class BeatOutageIsTwoLines(logging.Filter):
    """Beat logs "Message Error: Couldn't apply scheduled task table-clock: Error 111 connecting"
    with a traceback for every due task it cannot send while the broker is away (each second,
    for the clock), and "beat: Connection error ... Trying again" for each try to reconnect.
    Those become one warning when the outage starts, and one when beat sends a task again
    (``after_task_publish``)."""

    def __init__(self) -> None:
        super().__init__()
        from operations.outage_log import OutageLog

        self.outage = OutageLog(logging.getLogger("celery.beat"), "beat: the broker is away", "due tasks wait for it")

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("beat: Connection error") and record.args:  # retrying its connection
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            self.outage.failed(args[0] if isinstance(args[0], BaseException) else ConnectionError(str(args[0])))
            return False
        error = record.exc_info[1] if record.exc_info else None
        if error is None or not str(record.msg).startswith("Message Error:") or _outage_under(error) is None:
            return True
        self.outage.failed(_outage_under(error) or error)
        return False

    def published(self, **kwargs) -> None:
        self.outage.answered()


class WorkerOutageIsTwoLines(logging.Filter):
    """The worker logs "consumer: Cannot connect to ...: Error 111 ... Trying to reconnect" for
    each try while the broker is away: one warning when it starts, one when the worker
    receives a task again (``task_received``)."""

    STARTS = ("consumer: Cannot connect to", "consumer: Connection to broker lost")

    def __init__(self) -> None:
        super().__init__()
        from operations.outage_log import OutageLog

        self.outage = OutageLog(
            logging.getLogger("celery.worker.consumer.consumer"), "worker: the broker is away", "it reconnects"
        )

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).lstrip().startswith(self.STARTS):
            return True
        args = record.args if isinstance(record.args, tuple) else (record.args,)
        error = next((arg for arg in args if isinstance(arg, BaseException)), None)
        self.outage.failed(error or ConnectionError(record.getMessage().splitlines()[0]))
        return False

    def received(self, **kwargs) -> None:
        self.outage.answered()


def _outage_under(error: BaseException | None) -> BaseException | None:
    """The broker's connection error behind ``error`` (celery wraps it twice), if that is what it is."""
    from kombu.exceptions import OperationalError

    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, (*OUTAGES, OperationalError)):
            return error
        error, seen = error.__cause__ or error.__context__, seen + 1
    return None


def install() -> None:
    for name, starts in RECONNECTING:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ReconnectingIsAWarning) for f in logger.filters):
            logger.addFilter(ReconnectingIsAWarning(starts))
    consumer = logging.getLogger("celery.worker.consumer.consumer")
    if not any(isinstance(f, WorkerOutageIsTwoLines) for f in consumer.filters):
        worker_outage = WorkerOutageIsTwoLines()
        consumer.addFilter(worker_outage)
        signals.task_received.connect(worker_outage.received, weak=False)
    beat = logging.getLogger("celery.beat")
    if not any(isinstance(f, BeatOutageIsTwoLines) for f in beat.filters):
        outage = BeatOutageIsTwoLines()
        beat.addFilter(outage)
        signals.after_task_publish.connect(outage.published, weak=False)
