"""The room's translation catalogue as the tests read it, and a check that a page rendered in
a language shows none of the English it should have translated.

``english_left_in(html, catalogue)`` walks the HTML's text nodes (and the attributes people
read: aria-label, title, data-confirm, alt, placeholder) and returns each one that still holds
a piece of an English message of the catalogue: the message's words between its placeholders
and tags, when the translation changed them and the language does not use the same words
itself (a "Flop" stays "Flop" in Spanish; "Pot Limit" is written in both).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from django.conf import settings

_PLACEHOLDERS_AND_TAGS = re.compile(r"%\(\w+\)[sdr]|%[sd]|\{\w+\}|<[^>]*>")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]{2,}")
_READ_ATTRIBUTES = {"aria-label", "title", "data-confirm", "alt", "placeholder"}
_UNREAD_ELEMENTS = {"script", "style", "code", "pre"}  # code and commands are shown as they are


@dataclass
class Entry:
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    translations: list[str] = field(default_factory=list)
    fuzzy: bool = False


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header excluded), with their continued lines joined."""
    entries, entry, key = [], Entry(), None
    for raw in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = raw.strip()
        if not line:
            if entry.msgid:
                entries.append(entry)
            entry, key = Entry(), None
        elif line.startswith("#,"):
            entry.fuzzy = "fuzzy" in line
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            _append(entry, key, _unquote(line))
        else:
            key, _space, value = line.partition(" ")
            if key.startswith("msgstr"):
                entry.translations.append("")
            _append(entry, key, _unquote(value))
    return entries


def _append(entry: Entry, key: str | None, text: str) -> None:
    if key == "msgctxt":
        entry.context = (entry.context or "") + text
    elif key == "msgid":
        entry.msgid += text
    elif key == "msgid_plural":
        entry.plural = (entry.plural or "") + text
    elif key and key.startswith("msgstr"):
        entry.translations[-1] += text


def _unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def catalogue(language: str) -> list[Entry]:
    return read_po(Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po")


def _pieces(message: str) -> list[str]:
    """The message's own words: its text between placeholders and tags, each piece trimmed."""
    pieces = []
    for piece in _PLACEHOLDERS_AND_TAGS.split(message):
        piece = " ".join(piece.split()).strip(" .,:;()·–—#?!…+/\"'«»")
        if _WORD.search(piece):
            pieces.append(piece)
    return pieces


def english_phrases(entries: list[Entry]) -> list[re.Pattern]:
    """A pattern per English piece that a translated page must not show."""
    translated_text = " ".join(t for entry in entries for t in entry.translations)
    phrases = set()
    for entry in entries:
        english = [entry.msgid] + ([entry.plural] if entry.plural else [])
        if all(t == english[min(i, len(english) - 1)] for i, t in enumerate(entry.translations)):
            continue  # written the same in the language
        for message in english:
            for piece in _pieces(message):
                if not re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", translated_text, re.IGNORECASE):
                    phrases.add(piece)
    return [re.compile(rf"(?<![\w-]){re.escape(p)}(?![\w-])") for p in sorted(phrases, key=len, reverse=True)]


class _TextNodes(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in _UNREAD_ELEMENTS:
            self.skipping += 1
        for name, value in attrs:
            if name in _READ_ATTRIBUTES and value:
                self.nodes.append(value)
            if name == "value" and tag == "input" and ("type", "submit") in attrs and value:
                self.nodes.append(value)

    def handle_endtag(self, tag):
        if tag in _UNREAD_ELEMENTS and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.nodes.append(" ".join(data.split()))


def text_nodes(html: str) -> list[str]:
    parser = _TextNodes()
    parser.feed(html)
    parser.close()
    return parser.nodes


def english_left_in(html: str, phrases: list[re.Pattern]) -> list[tuple[str, str]]:
    """(text node, English piece) for every English piece found in the page's text."""
    found = []
    for node in text_nodes(html):
        for phrase in phrases:
            if phrase.search(node):
                found.append((node, phrase.pattern))
                break
    return found
