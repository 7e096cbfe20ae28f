"""A socket rebuilds each screen from a change's fragments and the contents it saw last
(``deltas.Seen``): never a wrong content, and never a miss while it got every change."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.presentation.deltas import Seen, digests

KEYS = ("board", "pot", "controls", "seat-1", "seat-2")
screens = st.lists(
    st.fixed_dictionaries({key: st.sampled_from([f"<{key}>{n}" for n in range(6)]) for key in KEYS}),
    min_size=1,
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(screens=screens, dropped=st.lists(st.booleans(), min_size=30, max_size=30), size=st.integers(5, 12))
def test_a_screen_rebuilt_is_the_screen_sent_and_a_socket_that_got_every_change_never_misses(screens, dropped, size):
    seen, shown, missed_one = Seen(size=size), {}, False
    for screen, drop in zip(screens, dropped, strict=False):
        changed = {key: html for key, html in screen.items() if shown.get(key) != html}
        shown = screen  # the sender's last message: what changed since it, every digest
        if drop:
            missed_one = True
            continue
        rebuilt = seen.rebuild(changed, digests(screen))
        if rebuilt is None:
            assert missed_one, "a socket that got every change could not rebuild its screen"
            seen = Seen(size=size)  # it reads its snapshot: the whole screen, seen anew
            seen.add(screen)
            missed_one = False
            continue
        assert rebuilt == screen
        missed_one = False  # the whole screen again: the next change is told from it
        assert len(seen._by_digest) <= size
