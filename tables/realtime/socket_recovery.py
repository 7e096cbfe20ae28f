"""Keeping a socket's screen right when what carries its messages fails.

A socket hears of changes through its channel groups, and a group message can be lost:
Redis restarts empty (every group membership with it), channels-redis drops a message past
a channel's capacity or after its expiry, a membership ends after ``group_expiry``, a change
commits while Redis is away and its screens are never published. Each screen carries the
table's version, so a lost message shows as a socket behind its table. Three things bring it
back, each by joining its groups again and sending a fresh snapshot:

- the socket's channel layer ``receive`` survives the layer going away: it waits for it to
  come back instead of ending the socket with a traceback, and once it answers again every
  socket of the process rejoins (only one of them was receiving when it failed);
- a watcher, one per server process, reads the versions of the tables its sockets show
  (one query a second) and tells a socket that has been behind, idle and without moving,
  for ``STALE_SECONDS`` to catch up;
- a socket whose handler hit an outage (the database or the layer away) tells its client in
  words, or closes with "try again later" while it connects, instead of failing.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
import weakref
from datetime import datetime

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.utils import timezone

from config.outages import CHANNEL_LAYER_ERRORS, DATABASE_ERRORS, OUTAGES, describe
from tables.selectors.table_state import table_versions

from . import inboxes
from .frame_arrivals import stamp_arrivals
from .frame_budgets import NOT_TAKEN
from .listeners import forget_listeners
from .quiet_outages import quiet_layer_cleanups
from .socket_teardown import detached, end_receiving, finished, to_the_end

logger = logging.getLogger(__name__)

WATCH_SECONDS = 1.0  # how often the watcher reads the versions
STALE_SECONDS = 2.0  # how long a socket may be behind its table, not moving, before it catches up
BEHIND_SECONDS = 0.5  # a process this late with the watcher's wake-up or its read is behind: no catch-ups
RETRY_SECONDS = 0.5  # how often an unreachable channel layer is tried again
TRY_AGAIN_LATER = 1013  # RFC 6455: the browser's websocket extension reconnects on it
GOING_AWAY = 1001  # RFC 6455: the server is going down (tables.realtime.graceful_shutdown)
ABNORMAL_CLOSURE = 1006  # RFC 6455: the connection went without a close frame
REJOIN = {"type": "socket.rejoin"}
REJOIN_ONLY = {"type": "socket.rejoin", "snapshot": False}
GO_AWAY = {"type": "socket.going_away"}


class RecoveringConsumer(AsyncWebsocketConsumer):
    """A websocket consumer that outlives its channel layer's and database's outages.

    Subclasses name their groups (``memberships``), send a fresh screen (``catch_up``), and
    say what a client sees when a frame meets an outage (``frame_failed``). A table socket
    sets ``table_id`` and keeps ``sent_version`` (the table version its screen shows) for
    the watcher."""

    table_id: int | None = None
    sent_version = -1
    advanced_at = 0.0  # when sent_version last went up (monotonic)
    stale_since: float | None = None
    accepted = False
    connecting = False  # its connect was dispatched
    leaving = False  # its disconnect was dispatched
    layer_receive: asyncio.Task | None = None  # the channel layer's receive in progress
    frame_arrived: datetime | None = None  # when the frame in hand reached this process
    frame_parsed: tuple[str, dict] | None = None  # the frame in hand as read on its arrival, if it was
    frame_taken: object = NOT_TAKEN  # its budget's answer (None: unknown), if asked on its arrival
    frame_session_read: dict | None = None  # what its session's check reads, if read on its arrival
    client_gone = False  # its client went (a handshake given up while it waited): no more work for it
    idle = False  # waiting for its next message, none in hand

    async def accept(self, subprotocol=None, headers=None):
        self.accepted = True
        await super().accept(subprotocol, headers)

    async def __call__(self, scope, receive, send):
        # channels' AsyncConsumer.__call__, with one inbox where every message waits its turn
        # (the client's frames, stamped with the time each arrived; what the channel layer
        # brings, through a receive that survives the layer; what this process tells the
        # socket, to rejoin or to go, and the changes it hands over: ``inboxes``), and a way
        # out that the socket's cancellation does not cut short (``socket_teardown``).
        self.scope = scope
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_name = await self.channel_layer.new_channel()
        self.base_send = send
        live_sockets.register(self)
        inboxes.here[self.channel_name] = self
        stamping = asyncio.ensure_future(stamp_arrivals(receive, self.inbox, self.frame_arrives, self.client_left))
        pumping = asyncio.ensure_future(self.pump_layer())
        try:
            while True:
                self.idle = True
                message = await self.inbox.get()
                self.idle = False
                if isinstance(message, BaseException):  # the socket's receive failed
                    raise message
                await self.dispatch(message)
        except StopConsumer:
            pass
        finally:
            self.idle = False
            inboxes.here.pop(self.channel_name, None)
            stamping.cancel()
            pumping.cancel()
            live_sockets.unregister(self)
            leaving = [pumping, end_receiving(self.layer_receive)]
            if self.connecting and not self.leaving:
                # Cancelled before it heard its client go (daphne's close timeout): it leaves all the same.
                leaving.append(detached(self.handle({"type": "websocket.disconnect", "code": ABNORMAL_CLOSURE})))
            await finished(leaving)

    async def pump_layer(self) -> None:
        """What the channel layer brings, into the inbox (its outages are waited out in
        ``receive_from_layer``; anything else it raises, the socket's loop raises)."""
        try:
            while True:
                self.inbox.put_nowait(await self.receive_from_layer())
        except Exception as error:
            self.inbox.put_nowait(error)

    def deliver(self, message: dict) -> None:
        """A message this process hands over (``publishing._hand_over``): handled at once if the
        socket has nothing in hand and nothing waiting and its handler can (``handle_now``),
        else put in its line."""
        try:
            if self.idle and self.inbox.empty() and self.handle_now(message):
                return
        except Exception:  # one socket's failure stops no other's hand-over: its turn meets it
            logger.exception("socket %s: a change handed over failed; handled again in its turn", self.channel_name)
        self.inbox.put_nowait(message)

    def waiting_for_nothing(self) -> bool:
        """Idle with nothing in its line: a socket behind its table like this has lost a
        message. One at work is not (under load every socket of a table may wait seconds for
        the table's frames, ``action_threads``): a snapshot for it would queue behind that work."""
        return self.idle and self.inbox.empty()

    def handle_now(self, message: dict) -> bool:
        """Handle ``message`` at once, without waiting for anything; False when it cannot."""
        return False

    def frame_arrives(self, message: dict) -> None:
        """A frame has just arrived, before it waits in this socket's line (``arrived_at``)."""

    def client_left(self) -> None:
        """The client has gone, even while a handler is still at work for it (``client_gone``)."""
        self.client_gone = True

    async def websocket_receive(self, message):
        self.frame_arrived = message.get("arrived_at") or timezone.now()
        self.frame_parsed = message.get("parsed")
        self.frame_taken = message.get("budget", NOT_TAKEN)
        self.frame_session_read = message.get("session_read")
        await super().websocket_receive(message)

    async def receive_from_layer(self) -> dict:
        while True:
            if self.layer_receive is None:
                # The layer's receive runs in a task of its own, which the socket's cancellation
                # does not reach: on the way out it is ended once (``end_receiving``).
                self.layer_receive = asyncio.ensure_future(self.channel_layer.receive(self.channel_name))
            try:
                message = await asyncio.shield(self.layer_receive)
            except CHANNEL_LAYER_ERRORS as error:
                self.layer_receive = None
                live_sockets.layer_lost(self.channel_layer, error)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self.layer_receive = None
            return message

    async def dispatch(self, message):
        kind = message.get("type")
        if kind == "websocket.connect":
            self.connecting = True
        elif kind == "websocket.disconnect":
            self.leaving = True
            await to_the_end(self.handle(message))  # the way out ends even if daphne cancels the socket
            return
        await self.handle(message)

    async def handle(self, message):
        if message.get("type") == "websocket.connect" and live_sockets.closing:
            await self.close(code=TRY_AGAIN_LATER)  # this server is stopping: the page tries another
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        # Channels' own dispatch first runs close_old_connections on the database thread, for
        # every message. Every database call of these consumers goes through
        # database_sync_to_async, which does that itself; skipping it here keeps a broadcast to
        # N sockets from queueing N times behind the writes on that one thread.
        try:
            await handler(message)
        except OUTAGES as error:
            await self.outage(message, error)

    async def outage(self, message: dict, error: BaseException) -> None:
        kind = message.get("type", "")
        logger.warning("socket %s: %s during %s; it recovers", self.channel_name, describe(error), kind)
        if isinstance(error, CHANNEL_LAYER_ERRORS):
            live_sockets.layer_lost(self.channel_layer, error)
        if kind == "websocket.connect":
            if self.accepted:
                await self.close(code=TRY_AGAIN_LATER)
            else:
                await self.close()  # the handshake is refused: the browser retries
        elif kind == "websocket.disconnect":
            raise StopConsumer
        elif kind == "websocket.receive":
            await self.frame_failed(error)
        else:  # a message from the layer, or a rejoin: the watcher tries again
            self.stale_since = None

    # --- what subclasses provide -------------------------------------------------------------
    def memberships(self) -> list[str]:
        return []

    async def catch_up(self) -> None:
        """Send this socket's screen as it is now."""

    async def frame_failed(self, error: BaseException) -> None:
        """A frame from the client met an outage (nothing it asked for was applied)."""

    # --- rejoining ----------------------------------------------------------------------------
    async def socket_rejoin(self, message) -> None:
        """Join the groups again (a restarted Redis forgot them; an expired membership ends)
        and send the screen as it is now."""
        self.stale_since = None
        for group in self.memberships():
            await _retrying(self.channel_layer.group_add, group, self.channel_name)
        if message.get("snapshot", True):
            await self.catch_up()

    async def socket_going_away(self, message) -> None:
        """The server is stopping: close once the frame in hand is done (this runs after it)."""
        await self.close(code=GOING_AWAY)

    async def leave_groups(self, groups) -> None:
        """Leave groups on the way out; a layer that is away forgot them anyway, and a
        membership it still holds expires."""
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except CHANNEL_LAYER_ERRORS as error:
                logger.warning("socket %s: could not leave %s (%s)", self.channel_name, group, describe(error))
                return


async def _retrying(call, *args, attempts: int = 5):
    """``call(*args)``, tried again at once a few times: after a Redis restart, each pooled
    connection fails once (then reconnects), so one socket's first tries may all meet one."""
    for attempt in range(attempts):
        try:
            return await call(*args)
        except CHANNEL_LAYER_ERRORS:
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0.02 * attempt)


class LiveSockets:
    """This process's open sockets: told to rejoin when the channel layer comes back, and
    watched for a screen that fell behind its table."""

    def __init__(self) -> None:
        self.sockets: weakref.WeakSet[RecoveringConsumer] = weakref.WeakSet()
        self.recovery: asyncio.Task | None = None
        self.watcher: asyncio.Task | None = None
        self.closing = False

    def register(self, consumer: RecoveringConsumer) -> None:
        self.sockets.add(consumer)
        quiet_layer_cleanups(asyncio.get_running_loop())
        if self.watcher is None or self.watcher.done() or self.watcher.get_loop() is not asyncio.get_running_loop():
            # A context of its own: the watcher must not share the database connection of the
            # socket that happened to start it (asgiref's locals follow the context).
            self.watcher = asyncio.get_running_loop().create_task(self.watch_versions(), context=contextvars.Context())

    def unregister(self, consumer: RecoveringConsumer) -> None:
        self.sockets.discard(consumer)

    def layer_lost(self, layer, error: BaseException) -> None:
        """The channel layer failed: once it answers again, every socket here rejoins."""
        if self.recovery is not None and not self.recovery.done():
            return
        logger.warning("channel layer unreachable (%s): sockets rejoin when it is back", describe(error))
        self.recovery = asyncio.get_running_loop().create_task(
            self.rejoin_when_back(layer), context=contextvars.Context()
        )

    async def rejoin_when_back(self, layer) -> None:
        started = time.monotonic()
        while True:
            await asyncio.sleep(RETRY_SECONDS)
            try:
                await layer.group_discard("layer-probe", "layer-probe.probe!x")  # a real round trip
                break
            except CHANNEL_LAYER_ERRORS:
                continue
        consumers = list(self.sockets)
        forget_listeners()  # the notices of sockets opened meanwhile elsewhere were lost
        logger.warning("channel layer back after %.1f s: %d sockets rejoin", time.monotonic() - started, len(consumers))
        # Only a socket behind its table needs a snapshot: a whole server's worth of them at
        # once would hold up the sockets that do (the watcher sees to any change missed later).
        tables = {c.table_id for c in consumers if c.table_id is not None}
        try:
            versions = await database_sync_to_async(table_versions)(tables) if tables else {}
        except DATABASE_ERRORS:
            versions = None
        for consumer in consumers:
            current = None if versions is None or consumer.table_id is None else versions.get(consumer.table_id)
            behind = current is None or consumer.sent_version < current
            consumer.inbox.put_nowait(REJOIN if behind else REJOIN_ONLY)

    async def close_all(self, timeout: float) -> int:
        """Close every socket here with 1001 and refuse new ones; returns how many closed
        within ``timeout`` seconds."""
        self.closing = True
        closing = list(self.sockets)
        for consumer in closing:
            consumer.inbox.put_nowait(GO_AWAY)
        deadline = time.monotonic() + timeout
        while any(consumer in self.sockets for consumer in closing) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return sum(consumer not in self.sockets for consumer in closing)

    async def watch_versions(self) -> None:
        while self.sockets:
            slept = time.monotonic()
            await asyncio.sleep(WATCH_SECONDS)
            late = time.monotonic() - slept - WATCH_SECONDS
            watched = [s for s in list(self.sockets) if s.table_id is not None and s.sent_version >= 0]
            if not watched:
                continue
            reading = time.monotonic()
            try:
                versions = await database_sync_to_async(table_versions)({s.table_id for s in watched})
            except DATABASE_ERRORS as error:
                logger.warning("screen versions not read (%s): tried again in %.0f s", describe(error), WATCH_SECONDS)
                continue
            now = time.monotonic()
            if process_behind(late, now - reading):
                # Its sockets are slow, not missing a message: a whole screen for each would
                # only put the process further behind. Each is watched afresh once it is not.
                for socket in watched:
                    socket.stale_since = None
                continue
            for socket in watched:
                current = versions.get(socket.table_id)
                if current is None or socket.sent_version >= current or not socket.waiting_for_nothing():
                    # Up to date, or still at work (a frame in hand, messages waiting: the
                    # change may be among them): slow, not missing a message.
                    socket.stale_since = None
                elif socket.stale_since is None:
                    socket.stale_since = now
                elif now - max(socket.stale_since, socket.advanced_at) >= STALE_SECONDS:
                    # Behind and not moving: a message was lost. (A socket that is behind but
                    # still moving is only slow, and a snapshot would slow it further.)
                    socket.stale_since = None
                    socket.inbox.put_nowait(REJOIN)


live_sockets = LiveSockets()


def process_behind(late: float, read: float) -> bool:
    """Whether this process is behind with its work: its event loop woke the watcher ``late``
    seconds after it asked, or the versions took ``read`` seconds to come back from the
    database thread (queued behind whatever runs there)."""
    return late > BEHIND_SECONDS or read > BEHIND_SECONDS
