"""Django's ``makemessages``, which also reads the Jinja2 fragments (templates/fragments/).

Django's own extractor reads Django templates and Python; the fragments are Jinja2, whose
``{% trans %}`` blocks and ``_("...", name=value)`` calls it would misread. Here the fragments
are left out of Django's pass and read with Jinja2's own extractor (the environment the room
renders them with), and their messages join the same ``django.pot`` before it is merged into
each language's ``django.po``: one command updates the whole catalogue (``scripts/messages``).
"""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings
from django.core.management.commands import makemessages
from django.template import engines

FRAGMENTS = Path(settings.BASE_DIR) / "templates" / "fragments"


class Command(makemessages.Command):
    help = makemessages.Command.help + " Also reads the Jinja2 fragments in templates/fragments/."

    def process_files(self, file_list):
        fragments = [f for f in file_list if Path(f.path).resolve().is_relative_to(FRAGMENTS)]
        super().process_files([f for f in file_list if f not in fragments])
        if self.domain != "django" or not fragments:
            return
        entries = [entry for fragment in fragments for entry in jinja_messages(Path(fragment.path))]
        potfile = os.path.join(fragments[0].locale_dir, f"{self.domain}.pot")
        makemessages.write_pot_file(potfile, pot_text(entries))


def jinja_messages(path: Path):
    """``(where, context, singular, plural)`` for each message of one fragment template."""
    env = engines["fragments"].env
    where = f"{path.resolve().relative_to(settings.BASE_DIR)}"
    for line, function, message in env.extract_translations(path.read_text(encoding="utf-8")):
        strings = (message,) if isinstance(message, str) else tuple(message)
        context = None
        if function in ("pgettext", "npgettext"):
            context, strings = strings[0], strings[1:]
        strings = tuple(s for s in strings if isinstance(s, str))
        if not strings:
            continue  # a message made at render time: nothing to translate here
        plural = strings[1] if function in ("ngettext", "npgettext") and len(strings) > 1 else None
        yield f"{where}:{line}", context, strings[0], plural


def pot_text(entries) -> str:
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for where, context, singular, plural in entries:
        lines.append(f"#: {where}")
        if "%(" in singular or (plural and "%(" in plural):
            lines.append("#, python-format")
        if context is not None:
            lines.append(f"msgctxt {_quoted(context)}")
        lines.append(f"msgid {_quoted(singular)}")
        if plural is None:
            lines.append('msgstr ""')
        else:
            lines += [f"msgid_plural {_quoted(plural)}", 'msgstr[0] ""', 'msgstr[1] ""']
        lines.append("")
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'
