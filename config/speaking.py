"""The language a change's screens are being written in, found without asking Django.

A change writes the same screens in each language some socket reads (``tables.presentation
.screens``), and every chip amount, card and log line in them asks which language is active:
Django keeps it in an ``asgiref`` local, slow to read that often. ``speaking(language)`` makes
the language active as ``translation.override`` does and keeps it in a context variable too,
which ``language()`` reads first; outside such a block (a page, a form, a command) it is
Django's active language."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils import translation

_speaking: ContextVar[str | None] = ContextVar("speaking", default=None)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """``translation.override(language)``, the language also kept for ``language()``. Nothing
    inside the block may make another language active (the screens' rendering does not)."""
    token = _speaking.set(language)
    try:
        with translation.override(language):
            yield
    finally:
        _speaking.reset(token)


def language() -> str | None:
    """The active language: the one being spoken (``speaking``), else Django's."""
    spoken = _speaking.get()
    return spoken if spoken is not None else translation.get_language()
