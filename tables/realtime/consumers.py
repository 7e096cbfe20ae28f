"""The table websocket (the lobby's: ``lobby_socket``).

A table's screens are rendered once per change by the process that made it
(``notify``): every socket of the table gets the public fragments from the
table's group, and a seated player's sockets get their own fragments (hole
cards, controls) from that player's group, so private parts exist only in
the frames sent to sockets whose user may see them. A socket renders for
itself only its snapshot on connect, and the seat forms of a viewer without
a seat when what they offer changes. How a change's messages become a socket's
frame: ``screen_updates``.

Each socket speaks its viewer's language (``socket_guard``): it takes the public
fragments in that language, and renders for itself a player's own screen pushed in
another (a player whose profile says one language on a browser that asked for another).
"""

from __future__ import annotations

import time
from functools import cached_property

from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.request_ids import RequestIdExpired, RequestIdRefused, new_request_id, request_nonce
from accounts.socket_sessions import SESSION_ENDED_CLOSE_CODE, SessionCheck
from accounts.socket_users import SESSION_CHECKED
from cashier.errors import RequestAlreadyUsed
from operations import metrics
from tables import services
from tables.forms import FrameError, parse_frame, seat_forms_purpose
from tables.presentation.deltas import Seen
from tables.presentation.fragments import REQUEST_ID_SLOT, error_fragment
from tables.presentation.screens import screen_for
from tables.realtime.notify import player_group, rendered_fragments, table_group
from tables.selectors.shared_reads import table_states
from tables.selectors.table_state import load_table_state
from tables.services import on_time, presence
from tables.services.errors import refusal_text

from . import admission, listeners, sockets
from .action_threads import on_action_thread
from .cache_threads import on_counts_thread
from .commands import COMMANDS, FRAME_FORMS
from .frame_budgets import budgets
from .screen_updates import SNAPSHOT_MESSAGE, ScreenUpdates
from .snapshot_threads import on_snapshot_thread
from .socket_guard import GuardedConsumer
from .table_chat import TableChat


class SessionEnded(Exception):
    """The socket's session was logged out, changed or deactivated since it connected."""


class TableConsumer(ScreenUpdates, TableChat, GuardedConsumer):
    # A change's screens come rendered in every language read: handled without setting this
    # viewer's (a snapshot they fall back on sets it, ``send_snapshot``).
    untranslated = frozenset(
        {"screen.changed", "table.changed", "player.changed", SNAPSHOT_MESSAGE, "listeners.joined"}
    )
    presence: tuple = ()  # the presence key of a logged-in viewer (set on connecting)
    viewer_id: int | None = None  # the logged-in viewer's user id (set on connecting)
    noted: set[int]  # the sequences of this socket's actions noted on their way (``on_time``)
    session_check: SessionCheck | None = None  # made on the first frame that changes something

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.noted = set()
        self._spectator_key = None

    @property
    def spectator_key(self):
        """What this viewer's seat forms depend on; None while seated (a player's own fragments
        come rendered). A watcher's socket holds no table served here (``admission.tables_served``)."""
        return self._spectator_key

    @spectator_key.setter
    def spectator_key(self, key) -> None:
        self._spectator_key = key
        claim = self.scope.get("table_claim")
        if claim is not None:
            admission.tables_served.watching(claim, key is not None)

    async def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.user = self.scope["user"]
        self.request_id = ""  # the seat forms' one-time request id (a logged-in viewer's); renewed once used
        self.sent: dict[str, str] = {}
        self.sent_version = -1
        self.seen = Seen()  # the contents this socket showed last, by digest
        self.halves: dict[int, dict[str, dict]] = {}  # version -> the table's and the player's message
        self.spectator_key = None  # until the snapshot says
        self.showing_error = False
        self.presence = ()
        self.muted: frozenset[int] = frozenset()  # the players whose chat this viewer does not see
        # Past the process's bound of work in flight a watcher's socket is refused (1013), a
        # seated player's still taken (``admission``): who is seated comes from the cache.
        user_id = self.viewer_id = self.user.pk if self.user.is_authenticated else None
        # A socket joining a table this process serves already (another socket of it opened
        # here first) is one of that table's players or watchers: its players come first.
        claim = self.scope.get("table_claim")
        playing_here = (claim is not None and claim.joined) or admission.tables_here.playing(self.table_id)
        if await self.busy_refusal(lambda: admission.is_seated(self.table_id, user_id), playing_here):
            return
        if self.user.is_authenticated:
            self.presence = (sockets.seat_presence_key(self.table_id, self.user.pk),)
            self.request_id = new_request_id(self.user.pk, seat_forms_purpose(self.table_id))
        try:
            await self.open_socket()
        finally:
            self.settled()

    async def open_socket(self):
        # The handshake is answered before any database work: in a reconnect storm the
        # database thread is the queue, and a handshake waiting in it would time out and be
        # retried, adding to the queue it waits in. A client that gave up meanwhile costs no more.
        if self.client_gone:
            return
        listens = (*self.presence, sockets.table_language_key(self.table_id, self.language))
        if not await self.admit(listens):
            return
        self.groups_joined = [table_group(self.table_id)]
        if self.user.is_authenticated:
            self.groups_joined.append(player_group(self.table_id, self.user.pk))
        for group in self.groups_joined:  # joined before the snapshot is read: no change falls between
            await self.channel_layer.group_add(group, self.channel_name)
        joined_at = time.monotonic()  # a read of the table begun since may be shown (``shared_reads``)
        if 1 in sockets.counts.here(listens).values():
            # The first socket here in its language, or of its player: a process that kept what
            # other processes listen to for this table asks again (``listeners``), this one at once.
            listeners.listeners_joined(self.table_id)
            await listeners.tell_others_joined(self.channel_layer, self.table_id, table_group(self.table_id))
        # The handshakes still unanswered come first (``admission.Handshakes``).
        await admission.handshakes.answered(admission.HANDSHAKES_FIRST_SECONDS)
        if self.client_gone:
            return
        # One trip, to a snapshot thread (``snapshot_threads``): presence, the snapshot and the recent chat.
        opening = await on_snapshot_thread(self.opening)(joined_at)
        if opening is None:  # no such table, or closed
            metrics.CONNECTS_REFUSED.labels("no_table").inc()
            await self.close()
            return
        # A reconnect or a second tab catches up here, the recent chat in the same frame.
        await self.show_snapshot(*opening)
        if self.spectator_key is None:  # a seated player's screen: the table plays here
            admission.tables_here.shown(self.table_id)
            self.playing_here = True

    async def disconnect(self, code):
        if getattr(self, "playing_here", False):
            self.playing_here = False
            admission.tables_here.closed(self.table_id)
        for sequence in list(self.noted):  # actions noted on their way that will never be applied
            on_time.action_done(table_id=self.table_id, sequence=sequence, user_id=self.user.pk)
        self.noted.clear()
        was_counted = bool(self.counted)
        await self.release()
        await self.leave_groups(getattr(self, "groups_joined", ()))
        # Presence is per seat: the player is gone only when their last socket here closes (RULES 6.3).
        if (
            was_counted
            and self.presence
            and not (await on_counts_thread(sockets.counts.totals)(self.presence))[self.presence[0]]
        ):
            await on_action_thread(self.table_id, presence.player_disconnected)(table_id=self.table_id, user=self.user)

    async def receive(self, text_data=None, bytes_data=None):
        if not self.frame_allowed():
            await self.refuse(gettext("Too many messages: this connection is closed. Reload the page."))
            return
        started = time.perf_counter()
        parsed, self.frame_parsed = self.frame_parsed, None
        session_read, self.frame_session_read = self.frame_session_read, None
        try:
            command, data = parsed if parsed is not None else parse_frame(text_data, FRAME_FORMS)
            keyed = COMMANDS[command].keyed
            if not self.user.is_authenticated:
                raise FrameError(gettext("Log in to chat.") if COMMANDS[command].chat else gettext("Log in to play."))
            if keyed:
                data["request_id"] = request_nonce(
                    data["request_id"], user_id=self.user.pk, purpose=seat_forms_purpose(self.table_id)
                )
            # The change's screens are queued for this socket before this returns.
            admission.in_flight.enter()
            applied = False
            try:
                await self.perform_on_its_thread(command, data, session_read)
                applied = True
            finally:
                admission.in_flight.leave()
                if COMMANDS[command].acts and data["sequence"] in self.noted:
                    self.noted.discard(data["sequence"])
                    if not applied:  # applied, it moved the turn on: a note for a sequence gone holds nothing
                        on_time.action_done(table_id=self.table_id, sequence=data["sequence"], user_id=self.user.pk)
        except (RequestIdExpired, RequestAlreadyUsed, services.RepeatedRequest) as refusal:
            metrics.ACTIONS.labels("refused", metrics.refusal_reason(refusal)).inc()
            self.showing_error = True
            await self.send_html(error_fragment(refusal_text(refusal)))
            await self.renew_request_id()  # used or expired: the form's next try goes through
            return
        except SessionEnded:
            await self.refuse(gettext("Your session has ended."), code=SESSION_ENDED_CLOSE_CODE)
            return
        except (FrameError, RequestIdRefused, *services.REFUSALS) as refusal:
            metrics.ACTIONS.labels("refused", metrics.refusal_reason(refusal)).inc()
            self.showing_error = True
            await self.send_html(error_fragment(refusal_text(refusal)))
            return
        metrics.ACTIONS_APPLIED.inc()
        metrics.ACTION_SECONDS.observe(time.perf_counter() - started)
        if keyed:
            await self.renew_request_id()
        if self.showing_error:
            self.showing_error = False
            await self.send_html(error_fragment())

    def frame_arrives(self, message: dict) -> None:
        """A player's action is on time if its frame arrived before the deadline, however long
        it then waits (behind this socket's frame in hand, for the database): noted the moment
        it arrives, the clock leaves the turn alone meanwhile (RULES 6). Once per hand's step."""
        user = getattr(self, "user", None)
        if user is None or not user.is_authenticated:
            return
        try:
            command, data = parse_frame(message.get("text"), FRAME_FORMS)
        except FrameError:
            return  # read again in its turn, where its error is told in the viewer's language
        message["parsed"] = (command, data)  # read once: ``receive`` takes it from here
        if not COMMANDS[command].acts or data["sequence"] in self.noted:
            return
        sequence, at = data["sequence"], message["arrived_at"]
        # The sender's frame budget, the note and what the session's check reads, in one trip to
        # the cache (``frame_allowed`` takes the budget's answer from the message, ``perform``
        # the session's entries: a frame is applied for the session as it was when it arrived).
        note = on_time.note(table_id=self.table_id, sequence=sequence, user_id=user.pk, at=at)
        reads = self.session_check.cache_keys() if self.session_check is not None else ()
        message["budget"], noted, message["session_read"] = budgets.take_noting(user.pk, note, reads)
        if noted is None and message["budget"] is not False:  # not tried there: noted its own way
            noted = on_time.action_arrived(table_id=self.table_id, sequence=sequence, user_id=user.pk, at=at)
        if noted:
            self.noted.add(sequence)

    def memberships(self) -> list[str]:
        return [*super().memberships(), *getattr(self, "groups_joined", ())]

    async def catch_up(self) -> None:
        await self.send_snapshot("behind")

    async def frame_failed(self, error: BaseException) -> None:
        # The service's transaction rolled back: nothing the frame asked for was applied.
        self.showing_error = True
        await self.send_html(error_fragment(gettext("The table is reconnecting, try again.")))

    @cached_property
    def perform_on_its_thread(self):
        """``perform`` as an awaitable run on the table's action thread: made once per socket
        (making it cost more than a frame's parse)."""
        return on_action_thread(self.table_id, self.perform)

    def perform(self, command: str, data: dict, session_read: dict[str, object] | None = None) -> None:
        """Call the one service the command names (in a worker thread: it writes the database).
        ``session_read``: what the session's check reads, read as the frame arrived."""
        if self.session_check is None:
            session_key = getattr(self.scope.get("session"), "session_key", None)
            self.session_check = SessionCheck(session_key, self.user.pk, self.scope.get(SESSION_CHECKED))
        if not self.session_check.current(session_read):
            raise SessionEnded
        COMMANDS[command].service(self.user, self.table_id, data)

    async def renew_request_id(self) -> None:
        """The seat forms' request id was used: the forms on the page get a fresh one, so a
        second click or a replay of the same form is refused."""
        self.request_id = new_request_id(self.user.pk, seat_forms_purpose(self.table_id))
        if "seat-panel" in self.sent:
            await self.send_html(self.sent["seat-panel"].replace(REQUEST_ID_SLOT, self.request_id))

    async def listeners_joined(self, event):
        """A socket of this table opened as a new listener in some process (``open_socket``)."""
        listeners.listeners_joined(event["table_id"])

    def opening(self, joined_at: float):
        """What a socket shows on connecting: (its snapshot, the recent chat), or None when the
        table is not open. Marks a returning player connected first, so the snapshot shows
        any reconnect grace it gave (RULES 6.3)."""
        state = table_states.get(self.table_id, joined_at)
        if state is not None and self.presence and self.marked_gone(state):
            # A player back at their seat: marked connected; read again only when that gave
            # grace (under the table's lock: their turn's deadline moved), else shown connected.
            if presence.player_connected(table_id=self.table_id, user=self.user):
                state = load_table_state(self.table_id)
            else:
                state = state.shown_connected(self.user.pk)
        if state is None or not state.table.is_active:
            return None
        return screen_for(state, self.user, timezone.now(), rendered_fragments()), self.chat_snapshot(joined_at)

    def marked_gone(self, state) -> bool:
        """Whether the viewer's seat is marked disconnected (read with the table's state: a
        second tab or a reconnect the close never reached costs no read of its own)."""
        return any(seat.player_id == self.user.pk and seat.disconnected_at is not None for seat in state.seats.values())

    async def send_snapshot(self, reason: str):
        """The whole screen again (``reason``: why a change could not be sent as its pieces)."""
        metrics.SNAPSHOTS.labels(reason).inc()
        asked_at = time.monotonic()  # the screen must show what was committed by now
        with translation.override(self.language):  # (a change's message is handled without it)
            rendered = await on_snapshot_thread(self.snapshot)(asked_at)
        if rendered is None:  # the table is gone
            await self.close()
            return
        await self.show_snapshot(rendered)

    async def show_snapshot(self, rendered, extra: str = "") -> None:
        screens, own = rendered
        self.spectator_key = None if screens.players else screens.spectator_key
        public = screens.public[self.language]
        self.seen.add({**public, **own})
        await self.send_fragments(screens.version, {**public, **own}, extra)

    def snapshot(self, asked_at: float):
        state = table_states.get(self.table_id, asked_at)
        return None if state is None else screen_for(state, self.user, timezone.now(), rendered_fragments())
