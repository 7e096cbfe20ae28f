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
