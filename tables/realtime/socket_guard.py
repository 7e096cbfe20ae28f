"""What every websocket of the room obeys, whatever page it serves.

- Caps: at most ``WEBSOCKET_MAX_PER_USER`` open sockets per user and
  ``WEBSOCKET_MAX_PER_IP`` per client address, over every server process.
- A rate limit per user, over all their sockets and every server process
  (``frame_budgets``; a visitor's per socket): a burst of ``WEBSOCKET_FRAME_BURST`` frames,
  then ``WEBSOCKET_FRAMES_PER_SECOND``; past it the socket that sent the frame gets a clear
  error and is closed with the policy-violation code.
- A session that ends takes its sockets with it: every socket of a logged-in user joins
  the groups of that user and of its session, and ``accounts.socket_sessions`` tells them
  to close on log-out, password change or deactivation. The page reloads on that close
  code, so it shows whoever is logged in now.
- Every socket speaks its viewer's language (``accounts.languages.language_of_scope``): each
  message it handles, and the worker threads it calls, run with that language active.
"""

from __future__ import annotations

import contextlib
import ipaddress

from autobahn.exception import Disconnected
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from accounts.languages import language_of_scope
from accounts.socket_sessions import SESSION_ENDED_CLOSE_CODE, session_group, user_group
from config.client_ip import client_ip_from_scope
from operations import metrics
from tables.presentation.fragments import error_fragment

from . import admission, refusals, sockets
from .cache_threads import on_counts_thread
from .frame_budgets import NOT_TAKEN, TokenBucket, budgets
from .snapshot_threads import on_snapshot_thread
from .socket_recovery import RecoveringConsumer

POLICY_VIOLATION = 1008  # RFC 6455: the client broke the server's policy
# The scope's key of ``send_text(text) -> bool``, which hands a text frame straight to the
# connection where the server is daphne (``graceful_shutdown``; False: not open yet).
TEXT_SENDER = "text_sender"


class GuardedConsumer(RecoveringConsumer):
    """A websocket that counts against the caps, is rate limited, ends with its session and
    outlives the outages of the services under it (``socket_recovery``)."""

    counted: list = []  # the socket keys this socket counts against, once admitted
    page = "table"  # its label in the metrics

    @property
    def language(self) -> str:
        """The viewer's language, found once from the socket's scope."""
        if not hasattr(self, "_language"):
            self._language = language_of_scope(self.scope)
        return self._language

    # The types of message whose handlers say nothing in the viewer's language themselves.
    untranslated: frozenset[str] = frozenset()

    async def dispatch(self, message):
        """Every message handled in the viewer's language (``sync_to_async`` carries it to threads),
        but those ``untranslated``, which need none. The language is made active once, in the
        socket's own task (its own context: no other socket's task sees it), for the rest of its
        life: switching Django's translation in and out for every frame (an ``asgiref`` local
        set twice and read once) was 1–2 % of a daphne at 100 tables (py-spy, 2026-12-07).
        What a handler's thread makes active comes back with it (``asgiref``'s context
        restored): a language other than the viewer's is put back at the next message."""
        if message.get("type") not in self.untranslated and translation.get_language() != self.language:
            translation.activate(self.language)
        await super().dispatch(message)

    async def busy_refusal(self, seated=None, joins_playing_table: bool = False) -> bool:
        """Past this process's bound of work in flight (``admission``): accept, say so and
        close with 1013, before any database work; returns whether refused. ``seated``: a
        callable telling (from the cache) whether the socket is a seated player's, asked
        only past the bound (at twice it, only for a table playing here);
        ``joins_playing_table``: its table is playing here, so a seated player there is taken
        whatever the work in flight. Admitted, the socket counts as in flight until ``settled``."""
        flight = admission.in_flight
        is_seated = seated() if seated is not None and flight.asks_seated(joins_playing_table) else None
        if not flight.admits(is_seated, joins_playing_table):
            metrics.CONNECTS_REFUSED.labels("busy").inc()
            await self.accept()
            await self.send_html(refusals.refusal_frame(self.language, "swamped" if flight.swamped else "busy"))
            await self.close(code=admission.TRY_AGAIN_LATER)
            return True
        flight.enter()
        self.opening_in_flight = True
        return False

    def settled(self) -> None:
        """The socket's opening is done (shown, refused or gone): no longer in flight."""
        if getattr(self, "opening_in_flight", False):
            self.opening_in_flight = False
            admission.in_flight.leave()

    async def admit(self, presence_keys: tuple = ()) -> bool:
        """Accept the socket if the caps allow it (else accept, explain and close). Returns whether admitted."""
        user = self.scope["user"]
        self.frames = TokenBucket(settings.WEBSOCKET_FRAME_BURST, settings.WEBSOCKET_FRAMES_PER_SECOND)
        keys = [sockets.ip_key(client_address(self.scope))]
        if user.is_authenticated:
            keys.append(sockets.user_key(user.pk))
        totals = await on_counts_thread(sockets.counts.totals)(keys)
        over_ip = totals[keys[0]] >= settings.WEBSOCKET_MAX_PER_IP
        over_user = user.is_authenticated and totals[keys[1]] >= settings.WEBSOCKET_MAX_PER_USER
        await self.accept()
        if over_ip or over_user:
            metrics.CONNECTS_REFUSED.labels("too_many_per_ip" if over_ip else "too_many_per_user").inc()
            await self.refuse(gettext("Too many open connections: close another tab or window and reload this page."))
            return False
        # Counted before the count's trip to the cache: a socket cancelled meanwhile is released whole.
        self.open_sockets = metrics.SOCKETS_OPEN.labels(
            self.page, "logged_in" if user.is_authenticated else "anonymous"
        )
        self.open_sockets.inc()
        self.counted = [*keys, *presence_keys, ("page", self.page)]  # the last: the room's total per page
        await on_counts_thread(sockets.counts.opened)(self.counted)
        if user.is_authenticated:
            self.session_groups = [user_group(user.pk)]
            session_key = getattr(self.scope.get("session"), "session_key", None)
            if session_key:
                self.session_groups.append(session_group(session_key))
            for group in self.session_groups:
                await self.channel_layer.group_add(group, self.channel_name)
        return True

    async def release(self) -> None:
        """Stop counting this socket (from ``disconnect``), whatever the channel layer says."""
        self.settled()
        if self.counted:
            counted, self.counted = self.counted, []
            self.open_sockets.dec()
            await on_counts_thread(sockets.counts.closed)(counted)
        await self.leave_groups(getattr(self, "session_groups", ()))

    def memberships(self) -> list[str]:
        return list(getattr(self, "session_groups", ()))

    async def receive(self, text_data=None, bytes_data=None):
        """A socket that takes no frames of its own only counts them: past its budget it is
        told so and closed."""
        if not self.frame_allowed():
            await self.refuse(gettext("Too many messages: this connection is closed. Reload the page."))

    def frame_allowed(self) -> bool:
        """Whether this frame is within its sender's budget: the user's over all their sockets
        (eight tabs do not buy eight budgets), a visitor's socket's own, or, while the cache is
        away, this socket's."""
        user = self.scope["user"]
        taken, self.frame_taken = self.frame_taken, NOT_TAKEN
        if taken is NOT_TAKEN:  # not taken on its arrival (``socket_recovery``)
            taken = budgets.take(user.pk) if user.is_authenticated else None
        return self.frames.take() if taken is None else bool(taken)

    async def refuse(self, message: str, code: int = POLICY_VIOLATION) -> None:
        await self.send_html(error_fragment(message))
        await self.close(code=code)

    async def chat_mutes(self, event) -> None:
        """A player's mutes changed (sent to all their sockets): only table pages show the chat."""

    async def user_alert(self, event) -> None:
        """An alert for this socket's player, on whatever page (sent to all their sockets): its
        HTML in every language of the room, the page's ``#room-alert`` (``static/js/alerts.js``
        plays the turn cue's sound and notification)."""
        await self.send_html(in_language(event["html"], self.language))

    async def session_ended(self, event) -> None:
        await self.refuse(gettext("Your session has ended."), code=SESSION_ENDED_CLOSE_CODE)

    async def send_html(self, html: str) -> None:
        """Send fragments; a client that went away while they were rendered is no error
        (daphne raises on the closed socket; the disconnect handler runs next). Under daphne
        straight to the connection (``TEXT_SENDER``)."""
        send_text = self.scope.get(TEXT_SENDER)
        with contextlib.suppress(Disconnected):
            if send_text is None or not send_text(html):
                await self.send(text_data=html)


def client_address(scope) -> str:
    """The client's address as daphne saw it (behind the proxy, from its forwarded header),
    counted as the HTTP throttles count it: an IPv6 address by its /64 (one subscriber's
    network, where a client picks any address it likes)."""
    address = ipaddress.ip_address(client_ip_from_scope(scope))
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def in_language(rendered: dict, language: str):
    """The viewer's language's version of something rendered in every language of the room
    (an empty version is one too: nothing of it changed)."""
    found = rendered.get(language)
    return found if found is not None else rendered[settings.LANGUAGE_CODE]


class ListSocket(GuardedConsumer):
    """A socket that shows a list rendered once per change for every socket (the lobby's, the
    tournaments'): it sends its snapshot on connecting and on catching up, and forwards the
    changes its ``group`` carries (each subclass's handlers)."""

    group: str

    async def connect(self):
        if await self.busy_refusal():
            return
        try:
            if not await self.admit():
                return
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.catch_up()
        finally:
            self.settled()

    async def disconnect(self, code):
        await self.release()
        await self.leave_groups([self.group])

    def memberships(self) -> list[str]:
        return [*super().memberships(), self.group]

    async def catch_up(self) -> None:
        # On a snapshot thread, as a table's: a loop of connects does not queue on the
        # database thread ahead of the players' actions.
        await self.send_html(await on_snapshot_thread(self.snapshot)())

    def snapshot(self) -> str:
        """The list as this socket shows it now (on a snapshot thread: it may read the database)."""
        raise NotImplementedError
