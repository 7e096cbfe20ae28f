"""Celery's Redis transport, with one repair for a Redis that restarts.

When the broker connection breaks, the worker closes it, and closing a channel first gives
back the messages it had received but not acknowledged (kombu's ``restore_unacked``). kombu
5.7 does that after the broken connection's parameters are gone, and the AttributeError it
raises is not a connection error, so the worker stops for good ("Unrecoverable error")
instead of reconnecting. Nothing can be given back then anyway: those messages were held in
the Redis that went away (and the room's only task, the clock's tick, expires in seconds and
comes again every second). So here the channel forgets them and the worker reconnects.

Likewise a message acknowledged while Redis is away (a tick received just before it went):
kombu logs that as CRITICAL, for an event the room expects and survives. The acknowledgement
is dropped with a warning: the Redis that held the message is gone, or (a connection that only
broke) it gives the message back after its visibility timeout, and a tick that old has expired.
"""

from __future__ import annotations

import logging

from kombu.transport import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)


class QoS(redis.QoS):
    def ack(self, delivery_tag):
        try:
            return super().ack(delivery_tag)
        except (RedisConnectionError, RedisTimeoutError, OSError) as error:
            logger.warning("broker connection lost: message %s not acknowledged (%s)", delivery_tag, error)
            # Done here all the same: not given back when the channel closes, to run again.
            return redis.virtual.QoS.ack(self, delivery_tag)

    def restore_unacked(self, client=None):
        try:
            return super().restore_unacked(client)
        except AttributeError as error:
            logger.warning(
                "broker connection lost: %d unacknowledged messages dropped (%s)", len(self._delivered), error
            )
            self._delivered.clear()
            return None


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
