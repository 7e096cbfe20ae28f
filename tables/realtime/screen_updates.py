"""A table socket's screen kept up to date from the messages of the table's changes (``notify``).

A message carries only the fragments that changed and the digests of all: a socket rebuilds
its screen from what it holds, and a seated player's from the table's message and their own
of the same version (in whichever order they come), reading its snapshot only when something
is missing. Only the fragments that changed since the last send go down, so a half-typed
amount survives unrelated updates.

Each message is worked out in steps that do not wait (``table_step``, ``player_step``): a
step says what to send, or that the socket needs its snapshot. So a change this process hands
over to a socket with nothing in hand and nothing waiting is applied at once, within the hand
over (``handle_now``): its frame goes straight to the connection, without a turn of the
socket's own loop (a queue, a wake-up and a dispatch per socket per change). A change that
needs a snapshot, or reaches a busy socket, is handled in the socket's turn, the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from autobahn.exception import Disconnected

from tables.presentation.deltas import Seen
from tables.presentation.fragments import PATCHES, REQUEST_ID_SLOT

from .notify import PlayerChanged, ScreenChanged, TableChanged
from .socket_guard import TEXT_SENDER


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The socket must read its whole screen again (``reason``: why, for the metrics)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Fragments:
    """The screen of ``version``, to send as what changed since the last frame."""

    version: int
    fragments: dict[str, str]


Step = Snapshot | Fragments | None  # None: nothing to send (an old change, or a half waiting for its pair)
SNAPSHOT_MESSAGE = "screen.snapshot"  # a snapshot a change handled at once asked for, in the socket's turn
# The messages of a change, and the halves each carries (a seated player's socket here gets both in one).
HALVES_OF = {
    "screen.changed": lambda message: (message["table"], message["player"]),
    "table.changed": lambda message: (message,),
    "player.changed": lambda message: (message,),
}


class ScreenUpdates:
    """The screen part of ``consumers.TableConsumer``: it sets what a socket shows (``sent``,
    ``sent_version``, ``seen``, ``halves``, ``spectator_key``) on connecting, and provides
    ``send_snapshot`` and ``send_html``."""

    scope: dict
    language: str
    viewer_id: int | None
    spectator_key: object
    request_id: str
    sent: dict[str, str]
    sent_version: int
    advanced_at: float
    seen: Seen
    halves: dict[int, dict[str, dict]]
    inbox: asyncio.Queue

    if TYPE_CHECKING:  # provided by the consumer

        async def send_snapshot(self, reason: str) -> None: ...

        async def send_html(self, html: str) -> None: ...

    # --- in the socket's turn ----------------------------------------------------------------
    async def changed(self, message: ScreenChanged | TableChanged | PlayerChanged):
        """A change's message (``screen.changed``: both halves at once, handed over in this
        process), each half's step taken once the one before it is done."""
        for step in self.steps(message):
            await self.take(step)

    table_changed = player_changed = screen_changed = changed

    async def screen_snapshot(self, event: dict):
        await self.send_snapshot(event["reason"])

    async def take(self, step: Step) -> None:
        if isinstance(step, Snapshot):
            await self.send_snapshot(step.reason)
        elif step is not None:
            await self.send_fragments(step.version, step.fragments)

    # --- at once, within the hand-over -------------------------------------------------------
    def handle_now(self, message: dict) -> bool:
        """Apply a change handed over by this process now, the socket having nothing in hand and
        nothing waiting (``socket_recovery.RecoveringConsumer.deliver``); False when it must
        wait its turn (not a change, or no straight way to the connection). A step that needs
        a snapshot puts it in the socket's line and ends there: the rest of the change (its
        player's half) is in what the snapshot shows."""
        send_text = self.scope.get(TEXT_SENDER)
        if send_text is None or message["type"] not in HALVES_OF:
            return False
        for step in self.steps(message):
            if isinstance(step, Snapshot):
                self.inbox.put_nowait({"type": SNAPSHOT_MESSAGE, "reason": step.reason})
                return True
            if step is not None:
                text = self.frame_for(step.version, step.fragments)
                if text:
                    with contextlib.suppress(Disconnected):
                        send_text(text)  # False: the connection is closing, the frame is dropped
        return True

    # --- the steps -----------------------------------------------------------------------------
    def steps(self, message: ScreenChanged | TableChanged | PlayerChanged) -> Iterator[Step]:
        """A change's steps, each taken once the one before it is done: both halves of a seated
        player's change in one when they come together and no half waits for its pair."""
        if message["type"] == "screen.changed" and not self.halves and self.viewer_id in message["table"]["players"]:
            yield self.whole_step(message["table"], message["player"])
            return
        for event in HALVES_OF[message["type"]](message):
            yield self.step(event)

    def whole_step(self, table: TableChanged, player: PlayerChanged) -> Step:
        """``table_step`` then ``player_step`` of the same change, for a seated player's socket
        with no half waiting: the screen rebuilt at once, without keeping the table's half."""
        version = table["version"]
        if version <= self.sent_version:
            return None
        self.spectator_key = None
        if player["language"] != self.language:
            return Snapshot("language")
        return self.rebuilt(version, table, player)

    def step(self, event: TableChanged | PlayerChanged) -> Step:
        return self.table_step(event) if event["type"] == "table.changed" else self.player_step(event)  # type: ignore[arg-type]

    def table_step(self, event: TableChanged) -> Step:
        if event["version"] <= self.sent_version:
            return None
        if self.language not in event["digests"]:
            return Snapshot("language")  # not rendered in this socket's language: nobody read it there yet
        if self.viewer_id is not None and self.viewer_id in event["players"]:
            self.spectator_key = None
            return self.halves_step(event["version"], "table", event)  # shown with the player's own
        if event["spectator_key"] != self.spectator_key:
            return Snapshot("seat_forms")  # the seat forms change: rendered for this viewer
        fragments = self.seen.rebuild(event["fragments"][self.language], event["digests"][self.language])
        if fragments is None:
            return Snapshot("unseen")
        return Fragments(event["version"], fragments)

    def player_step(self, event: PlayerChanged) -> Step:
        if event["version"] <= self.sent_version:
            return None
        self.spectator_key = None
        if event["language"] != self.language:
            return Snapshot("language")  # pushed in the profile's language: this socket asked for another
        return self.halves_step(event["version"], "player", event)

    def halves_step(self, version: int, half: str, event: dict) -> Step:
        """A seated player's screen of ``version`` is the table's message and their own: once
        both came, rebuilt."""
        halves = self.halves.setdefault(version, {})
        halves[half] = event
        if len(halves) < 2:
            for stale in [v for v in self.halves if v < version - 4]:  # a half that never got its pair
                del self.halves[stale]
            return None
        for done in [v for v in self.halves if v <= version]:
            del self.halves[done]
        return self.rebuilt(version, halves["table"], halves["player"])

    def rebuilt(self, version: int, table: TableChanged, player: PlayerChanged) -> Step:
        """A seated player's screen of ``version`` from both halves of its change."""
        if self.language not in table["digests"]:
            return Snapshot("language")  # not rendered in this socket's language
        public = self.seen.rebuild(table["fragments"][self.language], table["digests"][self.language])
        own = self.seen.rebuild(player["fragments"], player["digests"])
        if public is None or own is None:
            return Snapshot("unseen")
        return Fragments(version, {**public, **own})

    # --- the frame -----------------------------------------------------------------------------
    async def send_fragments(self, version: int, fragments: dict[str, str], extra: str = "") -> None:
        """``extra``: more fragments for the same frame (the chat, on connecting)."""
        text = self.frame_for(version, fragments, extra)
        if text:
            await self.send_html(text)

    def frame_for(self, version: int, fragments: dict[str, str], extra: str = "") -> str:
        """The frame that takes the screen to ``version`` (the fragments that changed, and
        ``extra``), the screen now taken as sent; "" when nothing changed."""
        if version < self.sent_version:
            return extra  # a snapshot read after this change already showed it
        changed = {key: html for key, html in fragments.items() if self.sent.get(key) != html}
        for public_key in [key for key in changed if key in PATCHES]:
            for patch in PATCHES[public_key]:  # the public fragment just wiped its viewer's patch
                if patch in fragments:
                    changed[patch] = fragments[patch]
        self.sent.update(fragments)
        if version > self.sent_version:
            self.advanced_at = time.monotonic()
        self.sent_version = version
        if "seat-panel" in changed:
            changed["seat-panel"] = changed["seat-panel"].replace(REQUEST_ID_SLOT, self.request_id)
        return "".join(changed.values()) + extra if changed or extra else ""
