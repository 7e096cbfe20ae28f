"""The worker's Redis transport survives the Redis restarting (config/celery_broker.py)."""

import contextlib
from types import SimpleNamespace

from django.conf import settings

from config.celery_broker import QoS


def _channel_whose_connection_is_gone():
    @contextlib.contextmanager
    def conn_or_acquire(client=None):
        raise AttributeError("'NoneType' object has no attribute 'hostname'")  # kombu 5.7, mid-close
        yield

    return SimpleNamespace(conn_or_acquire=conn_or_acquire, do_restore=True)


def test_closing_a_broken_channel_forgets_its_unacknowledged_messages_instead_of_failing():
    qos = QoS(_channel_whose_connection_is_gone(), prefetch_count=4)
    qos._delivered["tag-1"] = object()  # received, not yet acknowledged
    qos.restore_unacked()  # the Redis that held them is gone: nothing to give back
    assert not qos._delivered


def test_the_room_uses_it_with_redis():
    if settings.REDIS_URL:
        assert settings.CELERY_BROKER_TRANSPORT == "config.celery_broker:Transport"


def test_a_message_acknowledged_while_redis_is_away_is_a_warning_not_a_critical(caplog):
    """A tick received just before Redis went away is acknowledged after: nothing to remove
    from a Redis that is gone, and nothing the room does not survive (kombu logs it as
    CRITICAL, which an operator reads as the worker failing)."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    class Pipe:
        def zrem(self, *args):
            return self

        def hdel(self, *args):
            return self

        def execute(self):
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    @contextlib.contextmanager
    def conn_or_acquire(client=None):
        yield SimpleNamespace(pipeline=Pipe)

    channel = SimpleNamespace(conn_or_acquire=conn_or_acquire, do_restore=True,
                              unacked_key="unacked", unacked_index_key="unacked_index")  # fmt: skip
    qos = QoS(channel, prefetch_count=4)
    qos._delivered["tag-1"] = object()
    with caplog.at_level("WARNING", logger="config.celery_broker"):
        qos.ack("tag-1")
    assert "not acknowledged" in caplog.text
    qos._flush()
    assert not qos._delivered  # done: not given back to run again when the channel closes
