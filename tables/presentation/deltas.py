"""Send a screen as what changed: every fragment's digest, and the HTML only of those whose
content the receiver may not hold yet.

A sender remembers the digests it last sent to an audience (a table's group, one player's
group) and includes the HTML of a fragment only when its digest differs. The receiver checks
each digest against what its socket shows and the few contents it saw last: whatever it
already holds it takes from there, so a screen is rebuilt exactly whichever process sent the
previous change; if something is missing (it missed a message, or another process sent the
previous change), the receiver reads its snapshot instead.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict


def digest(html: str) -> str:
    """The digest of ``html``; that of a fragment's HTML kept and sent again (``view_models``)
    is worked out once, kept with the string (held in the entry, so its id is not reused
    while the entry lives)."""
    found = _digested.get(id(html))
    if found is not None and found[0] is html:
        return found[1]
    made = hashlib.blake2b(html.encode(), digest_size=8).hexdigest()
    if len(_digested) >= DIGESTS_KEPT:
        _digested.clear()
    _digested[id(html)] = (html, made)
    return made


_digested: dict[int, tuple[str, str]] = {}
DIGESTS_KEPT = 4096


def digests(fragments: dict[str, str]) -> dict[str, str]:
    return {key: digest(html) for key, html in fragments.items()}


class SentDigests:
    """What this process last sent to each audience, for the most recent ``size`` audiences."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._sent: OrderedDict[str, dict[str, str]] = OrderedDict()
        self._lock = threading.Lock()  # changes are announced from several threads

    def delta(self, audience: str, fragments: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
        """(the fragments to send, every fragment's digest), remembering these as sent."""
        now = digests(fragments)
        with self._lock:
            before = self._sent.pop(audience, {})
            self._sent[audience] = now
            while len(self._sent) > self.size:
                self._sent.popitem(last=False)
        return {key: html for key, html in fragments.items() if before.get(key) != now[key]}, now


class Seen:
    """The contents one receiver saw last, by digest (a few per socket: a fragment that comes
    back to an earlier content, like controls that empty again, is found here)."""

    def __init__(self, size: int = 32):
        self.size = size
        self._by_digest: OrderedDict[str, str] = OrderedDict()

    def add(self, fragments: dict[str, str], known: dict[str, str] | None = None) -> None:
        """Remember ``fragments`` (``known``: their digests by key, when the sender gave them)."""
        by_digest = self._by_digest
        for key, html in fragments.items():
            found = known[key] if known is not None else digest(html)
            if found in by_digest:  # the same content: only the most recent again
                by_digest.move_to_end(found)
            else:
                by_digest[found] = html
        while len(by_digest) > self.size:
            by_digest.popitem(last=False)

    def rebuild(self, fragments: dict[str, str], wanted: dict[str, str]) -> dict[str, str] | None:
        """Every fragment ``wanted`` names (key -> digest), from ``fragments`` or what was seen,
        each remembered as seen last (in one walk: a change's every fragment, for every socket);
        None if one of them is neither."""
        by_digest = self._by_digest
        rebuilt = {}
        for key, wanted_digest in wanted.items():
            html = fragments.get(key)
            if html is not None and wanted_digest not in by_digest:
                by_digest[wanted_digest] = html
            else:
                html = by_digest.get(wanted_digest)
                if html is None:
                    return None  # what was remembered on the way is still true: its own digests
                by_digest.move_to_end(wanted_digest)
            rebuilt[key] = html
        while len(by_digest) > self.size:
            by_digest.popitem(last=False)
        return rebuilt
