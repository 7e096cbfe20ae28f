"""The Jinja2 environment of the websocket fragments (rendered on every table change, so the
faster engine): Django's ``url`` and ``static`` as functions, and Django's translations (the
i18n extension with Django's catalogues: a fragment is rendered in the language active then;
``|chips`` writes an amount as that language does).

A screen calls gettext hundreds of times, and finding the active language is most of what
Django's gettext costs (an ``asgiref`` local lookup each time). ``fragment_translations``
finds it once for a whole render: inside it the templates ask that language's catalogue
directly; outside it they ask Django as usual.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.translation import trans_real
from jinja2 import Environment, pass_context
from jinja2.runtime import Context, Macro
from markupsafe import Markup

from config.numbers import chips, signed_chips
from config.speaking import language as active_language

_catalogue: ContextVar[object | None] = ContextVar("fragment_catalogue", default=None)


@contextmanager
def fragment_translations() -> Iterator[None]:
    """Render with the active language's catalogue, found once (none active: Django's own way)."""
    language = active_language()
    token = _catalogue.set(trans_real.translation(language) if language else None)
    try:
        yield
    finally:
        _catalogue.reset(token)


def _gettext(message: str) -> str:
    catalogue = _catalogue.get()
    if catalogue is None or not message:
        return translation.gettext(message)
    return catalogue.gettext(message)  # type: ignore[attr-defined]


@pass_context
def _gettext_formatted(context: Context, message: str, **variables: object) -> str:
    """Jinja's new-style ``gettext`` (and ``_``): the translation, marked safe when escaping,
    formatted with ``variables`` (escaped). Most of a screen's strings have none, and a
    translation with no ``%`` in it formats to itself: those are not formatted (Jinja's own
    formats every one, a tenth of a screen's rendering)."""
    translated = _gettext(message)
    if context.eval_ctx.autoescape:
        translated = Markup(translated)
    if variables or "%" in translated:
        return translated % variables
    return translated


def _ngettext(singular: str, plural: str, number: int) -> str:
    catalogue = _catalogue.get()
    if catalogue is None:
        return translation.ngettext(singular, plural, number)
    return catalogue.ngettext(singular, plural, number)  # type: ignore[attr-defined]


def _kept(macro: Macro, *args: Hashable) -> Markup:
    """What ``macro`` draws for ``args`` (immutable values) in the active language, drawn once:
    the same card, say, appears in many pieces of every change's screens. The catalogue found
    for the render names the language (one per language), else Django finds it."""
    return _drawn(macro, args, _catalogue.get() or active_language())


@lru_cache(maxsize=4096)
def _drawn(macro: Macro, args: tuple[Hashable, ...], _language: object) -> Markup:
    return Markup(macro(*args))


def _chips(amount: int | None) -> str:
    """``chips`` in the language of the render's catalogue (no lookup of the active one)."""
    catalogue = _catalogue.get()
    return chips(amount, catalogue.language() if catalogue is not None else None)  # type: ignore[attr-defined]


def _url(name: str, args=()) -> str:
    """``reverse``, remembered: a fragment asks for the same few addresses on every render."""
    return _reverse(name, tuple(args), get_script_prefix())


@lru_cache(maxsize=1024)
def _reverse(name: str, args: tuple, _script_prefix: str) -> str:
    return reverse(name, args=args)


def environment(**options) -> Environment:
    env = Environment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(
        _gettext,
        _ngettext,
        newstyle=True,
        pgettext=translation.pgettext,
        npgettext=translation.npgettext,
    )
    env.globals.update(gettext=_gettext_formatted, _=_gettext_formatted, url=_url, static=static, kept=_kept)
    env.filters.update(chips=_chips, signed_chips=signed_chips)  # "1,000" / "1.000": config.numbers
    return env
