"""The channel layer's wire format: msgpack, compressed with zlib when a message is large.

A table's screens are HTML, which compresses several times over; every message crosses
Redis once per publish and is read back by every process subscribed to its group, so the
bytes saved are saved on every hop. Registered as ``"msgpack-zlib"`` for channels-redis's
``serializer_format``.
"""

from __future__ import annotations

import zlib

import msgpack
from channels_redis.serializers import BaseMessageSerializer, registry

FORMAT = "msgpack-zlib"
COMPRESS_FROM = 512  # bytes: below this zlib's header costs more than it saves
_PLAIN, _COMPRESSED = b"m", b"z"


class CompressedMsgPackSerializer(BaseMessageSerializer):
    def as_bytes(self, message, *args, **kwargs):
        packed = msgpack.packb(message)
        if len(packed) < COMPRESS_FROM:
            return _PLAIN + packed
        return _COMPRESSED + zlib.compress(packed, 1)  # level 1: most of the gain for a fraction of the time

    def from_bytes(self, message, *args, **kwargs):
        kind, body = message[:1], message[1:]
        return msgpack.unpackb(zlib.decompress(body) if kind == _COMPRESSED else body)


registry.register_serializer(FORMAT, CompressedMsgPackSerializer)
