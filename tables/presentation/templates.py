"""The fragment templates (``templates/fragments``, Jinja2's): each loaded once and held, and
rendered on its own in the active language's catalogue (``config.jinja2``)."""

from __future__ import annotations

from collections.abc import Mapping

import jinja2
from django.template import engines
from django.template.backends.jinja2 import Jinja2

from config.jinja2 import fragment_translations


def template(name: str) -> jinja2.Template:
    """The fragment template ``name``; held here once loaded unless templates reload as they
    change (``auto_reload``: under DEBUG), for every change's screens ask for several."""
    found = _templates.get(name)
    if found is not None:
        return found
    backend = engines["fragments"]
    assert isinstance(backend, Jinja2)  # settings.TEMPLATES: the fragments are Jinja2's
    loaded = backend.env.get_template(name)
    if not backend.env.auto_reload:
        _templates[name] = loaded
    return loaded


_templates: dict[str, jinja2.Template] = {}


def render_fragment(name: str, context: Mapping[str, object]) -> str:
    """One fragment template rendered on its own."""
    with fragment_translations():
        return template(name).render(context).strip()  # htmx swaps each top-level element
