"""A zip archive written as it streams: each file goes out as soon as it is compressed.

``zipfile`` writes to an output it cannot seek (sizes after each file's data,
as the format allows), so nothing is held beyond the file being written.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator


class _Chunks:
    """A write-only file whose writes are collected until taken."""

    def __init__(self) -> None:
        self._pieces: list[bytes] = []

    def write(self, data: bytes) -> int:
        self._pieces.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:  # zipfile leaves a file it was given open; here for its type
        pass

    def take(self) -> bytes:
        data, self._pieces = b"".join(self._pieces), []
        return data


def streamed_zip(files: Iterable[tuple[str, str]]) -> Iterator[bytes]:
    """The zip of ``(name, text)`` files (UTF-8), in pieces."""
    sink = _Chunks()
    with zipfile.ZipFile(sink, mode="w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files:
            archive.writestr(name, text.encode())
            yield sink.take()
    yield sink.take()
