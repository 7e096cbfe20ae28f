"""The channel layer's wire format: msgpack, compressed with zlib when a message is large.

A table's screens are HTML, which compresses several times over; every message crosses
Redis once per publish and is read back by every process subscribed to its group, so the
bytes saved are saved on every hop. Registered as ``"msgpack-zlib"`` for channels-redis's
``serializer_format``.

A group's message reaches a process once and is read by each of its sockets in that group
(channels-redis deserializes it per socket): the last messages read are kept by their bytes,
so a table's change is unpacked once per process, not once per socket. The receivers share
the message and only read it.
"""

from __future__ import annotations

import zlib

import msgpack
from channels_redis.serializers import BaseMessageSerializer, registry

FORMAT = "msgpack-zlib"
COMPRESS_FROM = 512  # bytes: below this zlib's header costs more than it saves
_PLAIN, _COMPRESSED = b"m", b"z"


class Unpacked(bytes):
    """A message handed to a socket of this process without crossing Redis
    (``tables.realtime.notify``): read as the message it carries."""

    message: dict


def unpacked(message: dict) -> Unpacked:
    found = Unpacked()
    found.message = message
    return found


def hands_over(serializer: BaseMessageSerializer) -> bool:
    """Whether a layer with ``serializer`` reads an ``Unpacked`` as its message (this format,
    no encryption, no random prefix)."""
    return (
        isinstance(serializer, CompressedMsgPackSerializer)
        and serializer.crypter is None
        and not getattr(serializer, "random_prefix_length", 0)
    )


class CompressedMsgPackSerializer(BaseMessageSerializer):
    def as_bytes(self, message, *args, **kwargs):
        packed = msgpack.packb(message)
        if len(packed) < COMPRESS_FROM:
            return _PLAIN + packed
        return _COMPRESSED + zlib.compress(packed, 1)  # level 1: most of the gain for a fraction of the time

    def from_bytes(self, message, *args, **kwargs):
        if isinstance(message, Unpacked):
            return message.message
        found = _read.get(message)
        if found is not None:
            return found
        kind, body = message[:1], message[1:]
        found = msgpack.unpackb(zlib.decompress(body) if kind == _COMPRESSED else body)
        if len(_read) >= READ_KEPT:
            _read.clear()
        _read[message] = found
        return found


# The messages read last, by their bytes (``from_bytes``).
READ_KEPT = 256
_read: dict[bytes, object] = {}


registry.register_serializer(FORMAT, CompressedMsgPackSerializer)
