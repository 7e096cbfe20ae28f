"""The Jinja2 environment of the websocket fragments (rendered on every table change, so the
faster engine): Django's ``url`` and ``static`` as functions, and Django's translations (the
i18n extension with Django's gettext: a fragment is rendered in the language active then)."""

from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from jinja2 import Environment


def environment(**options) -> Environment:
    env = Environment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(translation.gettext, translation.ngettext, newstyle=True)
    env.globals.update(url=lambda name, args=(): reverse(name, args=args), static=static)
    return env
