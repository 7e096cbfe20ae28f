"""Logs an operator can read: an outage of a service under the room is one warning when it
starts and one when it ends, not a traceback per attempt; LOG_FORMAT=json gives JSON lines
with the ids of what a line concerns."""

from __future__ import annotations

import json
import logging
import sys

import redis
from celery import signals
from celery.beat import SchedulingError
from kombu.exceptions import OperationalError

from tables.realtime import sockets


def _beat_fails_to_send() -> None:
    """What celery.beat logs when the broker is away at a due task (celery/beat.py apply_entry)."""
    try:
        try:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")
        except OperationalError as exc:
            raise SchedulingError(f"Couldn't apply scheduled task table-clock: {exc}") from exc
    except SchedulingError as exc:
        logging.getLogger("celery.beat").error("Message Error: %s\n%s", exc, ["stack"], exc_info=sys.exc_info())


def test_beat_logs_a_broker_outage_as_two_warnings_without_tracebacks(caplog):
    caplog.set_level(logging.INFO)
    for _ in range(8):  # eight missed ticks
        _beat_fails_to_send()
    refused = ConnectionRefusedError(111, "Connection refused")
    logging.getLogger("celery.beat").error("beat: Connection error: %s. Trying again in %s seconds...", refused, 2.0)
    signals.after_task_publish.send(sender="tables.tasks.tick")  # beat sends again: the broker is back
    lines = [r for r in caplog.records if r.name == "celery.beat"]
    assert [r.levelno for r in lines] == [logging.WARNING, logging.WARNING], [r.getMessage() for r in lines]
    assert not any(r.exc_info for r in lines)
    assert "the broker is away" in lines[0].getMessage() and "Error 111" in lines[0].getMessage()
    assert "back after" in lines[1].getMessage() and "9 attempts failed" in lines[1].getMessage()


def test_the_worker_logs_a_broker_outage_as_two_warnings(caplog):
    consumer = logging.getLogger("celery.worker.consumer.consumer")
    refused = ConnectionRefusedError(111, "Connection refused")
    for _ in range(5):  # celery/worker/consumer/consumer.py CONNECTION_ERROR, once per try
        consumer.error("consumer: Cannot connect to %s: %s.\n%s\n", "redis://10.0.0.5:6379/0", refused,
                       "Trying to reconnect...")  # fmt: skip
    signals.task_received.send(sender=None, request=None)  # a task arrives: the broker is back
    lines = [r for r in caplog.records if r.name == consumer.name]
    assert [r.levelno for r in lines] == [logging.WARNING, logging.WARNING], [r.getMessage() for r in lines]
    assert "Connection refused" in lines[0].getMessage() and "5 attempts failed" in lines[1].getMessage()


def test_a_beat_error_that_is_no_outage_keeps_its_traceback(caplog):
    try:
        raise SchedulingError("Couldn't apply scheduled task table-clock: a bug") from KeyError("x")
    except SchedulingError as exc:
        logging.getLogger("celery.beat").error("Message Error: %s\n%s", exc, [], exc_info=sys.exc_info())
    (record,) = [r for r in caplog.records if r.name == "celery.beat"]
    assert record.levelno == logging.ERROR and record.exc_info


def test_socket_counts_log_a_cache_outage_once_when_it_starts_and_once_when_it_ends(caplog):
    def cache_away():
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for _ in range(5):
        assert sockets._quietly(cache_away, default=0) == 0
    assert sockets._quietly(lambda: 7) == 7
    assert sockets._quietly(lambda: 8) == 8
    lines = [r for r in caplog.records if r.name == sockets.__name__]
    assert len(lines) == 2 and not any(r.exc_info for r in lines), [r.getMessage() for r in lines]
    assert "Connection refused" in lines[0].getMessage() and "back after" in lines[1].getMessage()


def test_json_lines_carry_the_ids_of_what_a_line_concerns():
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('tables.realtime.notify').warning('table %s: screens not published', 7, "
        "extra={'table_id': 7})"
    )
    import subprocess

    from ..support.processes import ROOT, process_env

    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=process_env(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1", LOG_FORMAT="json"),
        capture_output=True,
        text=True,
        check=True,
    )
    line = json.loads(run.stderr.strip().splitlines()[-1])
    assert line["table_id"] == 7 and line["level"] == "WARNING" and line["logger"] == "tables.realtime.notify"
    assert line["message"] == "table 7: screens not published" and "time" in line
