"""The Jinja2 environment of the websocket fragments (rendered on every table change, so the
faster engine): Django's ``url`` and ``static`` as functions, and Django's translations (the
i18n extension with Django's gettext: a fragment is rendered in the language active then;
``|chips`` writes an amount as that language does)."""

from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from jinja2 import Environment

from config.numbers import chips, signed_chips


def environment(**options) -> Environment:
    env = Environment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(
        translation.gettext,
        translation.ngettext,
        newstyle=True,
        pgettext=translation.pgettext,
        npgettext=translation.npgettext,
    )
    env.globals.update(url=lambda name, args=(): reverse(name, args=args), static=static)
    env.filters.update(chips=chips, signed_chips=signed_chips)  # "1,000" / "1.000": config.numbers
    return env
