"""The translation catalogue, compiled in Python wherever the room runs.

Only the ``.po`` files are in the repository. Every process that loads the settings (daphne,
celery, manage.py) calls ``compiled_locale_paths`` first: it compiles each
``locale/<lang>/LC_MESSAGES/django.po`` to its ``.mo`` with polib when the ``.mo`` is missing or
older, so no server needs GNU gettext and no deployment depends on a build or release step
having written the file. When the source tree cannot be written (a read-only slug or image),
the ``.mo`` files go to a private temporary directory of this process, which Django then reads
in place of the source tree.

``scripts/compile-messages`` runs the same code (``python -m config.catalogue``); ``--check``
also refuses a catalogue with a fuzzy or untranslated entry or a translation whose
placeholders differ from its message's.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

import polib

_PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sdr]|\{\w*\}")


def catalogues(source: Path) -> list[Path]:
    return sorted(source.glob("*/LC_MESSAGES/*.po"))


def _compile(po: Path, mo: Path) -> None:
    """Write ``mo`` from ``po`` atomically (processes starting at once may race to write it)."""
    mo.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=mo.parent, prefix=".django-", suffix=".mo")
    os.close(handle)
    try:
        polib.pofile(str(po)).save_as_mofile(temporary)
        os.chmod(temporary, 0o644)
        os.replace(temporary, mo)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _stale(po: Path, mo: Path) -> bool:
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


def compile_catalogues(source: Path) -> list[Path]:
    """Compile every stale ``.mo`` beside its ``.po``; the ``.mo`` files written."""
    written = []
    for po in catalogues(source):
        mo = po.with_suffix(".mo")
        if _stale(po, mo):
            _compile(po, mo)
            written.append(mo)
    return written


def compiled_locale_paths(source: Path) -> list[Path]:
    """The LOCALE_PATHS to give Django: ``source`` with every ``.mo`` compiled beside its
    ``.po``, or, when ``source`` cannot be written, a private directory holding them."""
    try:
        compile_catalogues(source)
        return [source]
    except OSError:
        target = Path(tempfile.mkdtemp(prefix="omaha-locale-"))
        for po in catalogues(source):
            _compile(po, target / po.relative_to(source).with_suffix(".mo"))
        return [target]


def problems(po_path: Path) -> list[str]:
    """What keeps a catalogue from being complete: fuzzy, untranslated or obsolete entries,
    and translations whose placeholders are not their message's."""
    po = polib.pofile(str(po_path))
    found = [f"fuzzy: {e.msgid!r}" for e in po.fuzzy_entries()]
    found += [f"untranslated: {e.msgid!r}" for e in po.untranslated_entries()]
    for entry in po.translated_entries():
        if entry.msgid_plural:
            sources = {0: entry.msgid, **{i: entry.msgid_plural for i in entry.msgstr_plural if i}}
            pairs = [(sources[i], text) for i, text in entry.msgstr_plural.items()]
        else:
            pairs = [(entry.msgid, entry.msgstr)]
        for message, translation in pairs:
            named = {p for p in _PLACEHOLDER.findall(message) if "(" in p}
            counted = len(_PLACEHOLDER.findall(message)) != len(_PLACEHOLDER.findall(translation))
            if named != {p for p in _PLACEHOLDER.findall(translation) if "(" in p} or (
                not named and counted and "python-format" in entry.flags
            ):
                found.append(f"placeholders differ: {message!r} -> {translation!r}")
    return found


def main(argv: list[str]) -> int:
    source = Path(__file__).resolve().parent.parent / "locale"
    status = 0
    if "--check" in argv:
        for po in catalogues(source):
            catalogue = polib.pofile(str(po))
            found = problems(po)
            translated = len(catalogue.translated_entries())
            print(f"{po.relative_to(source.parent)}: {translated} translated, {len(found)} problems")
            for problem in found:
                print(f"  {problem}", file=sys.stderr)
            if found:
                status = 1
    for mo in compile_catalogues(source):
        print(f"compiled {mo.relative_to(source.parent)}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
