"""The Jinja2 environment of the websocket fragments (rendered on every table change, so the
faster engine): Django's ``url`` and ``static`` as functions."""

from django.templatetags.static import static
from django.urls import reverse
from jinja2 import Environment


def environment(**options) -> Environment:
    env = Environment(trim_blocks=True, lstrip_blocks=True, **options)
    env.globals.update(url=lambda name, args=(): reverse(name, args=args), static=static)
    return env
