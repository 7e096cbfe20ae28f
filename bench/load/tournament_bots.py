"""Tournament bots: the cash-table bots' play (``bots.Bot``), following their seat from table to table.

A bot finds its table on the tournament's page (``/tournaments/<id>/``, its "Open my table"
link, read over HTTP with its session cookie) once the tournament has started, and opens its
socket there. When its table's seat panel stops showing its seat (balancing or a table breaking
moved it, RULES 8.7, 8.8, or it was eliminated), it closes the socket and reads the page again:
a new table is where it reconnects; no table means it is out (or the tournament is over), and it
leaves. The actions still waiting for its screen at the old table stop waiting for it: a screen
that left a table is no longer one of that table's screens.
"""

from __future__ import annotations

import asyncio
import re
import time

from .bots import ANSWER_TIMEOUT, CONNECT_TIMEOUT, Bot
from .screens import split_fragments
from .stack import HOST
from .ws import ConnectionClosed, HandshakeError, WebSocket

MY_TABLE = re.compile(r'<a href="/tables/(\d+)/"')  # the page's "Open my table" link


async def http_get(port: int, path: str, session_key: str, timeout: float = 10.0) -> tuple[int, str]:
    """(status, body) of a GET with the bot's session cookie (HTTP/1.0: the server closes)."""

    async def fetch() -> tuple[int, str]:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            writer.write(
                f"GET {path} HTTP/1.0\r\nHost: {HOST}:{port}\r\nCookie: sessionid={session_key}\r\n"
                "Accept-Language: en\r\n\r\n".encode()
            )
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
        head, _, body = raw.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
        return status, body.decode("utf-8", "replace")

    return await asyncio.wait_for(fetch(), timeout)


class TournamentBot(Bot):
    def __init__(self, account, ports, harness, profile, rng, tournament_id: int, route: str = "table"):
        super().__init__(account, ports, harness, profile, rng, route)
        self.tournament_id = tournament_id
        self.route = route
        self.seated_here = False  # the current socket's seat panel has shown this bot's seat
        self.moving = False
        self.out = False  # eliminated or the tournament is over: no table on the page
        self.tables: list[int] = []  # every table it played at, in order
        self.page_reads = 0
        self.page_failures = 0
        self.opened_at: float | None = None  # when its first socket opened (monotonic)
        self.first_shown_at: float | None = None  # when that socket's snapshot arrived

    async def find_table(self) -> int | None:
        """The table the tournament page links as this player's, or None."""
        attempt = 0
        while not self.h.stop.is_set():
            port = self.ports[(self.account.user_id + attempt) % len(self.ports)]
            try:
                status, body = await http_get(port, f"/tournaments/{self.tournament_id}/", self.account.session_key)
            except (TimeoutError, OSError, ValueError, IndexError):
                status, body = 0, ""
            self.page_reads += 1
            if status == 200:
                mark = body.find(">Open my table<")
                links = MY_TABLE.findall(body[max(0, mark - 200) : mark + 1]) if mark >= 0 else []
                return int(links[-1]) if links else None
            self.page_failures += 1
            attempt += 1
            await self.h.sleep(min(2.0, 0.05 * 2 ** min(attempt, 6)))
        return None

    def follow(self, table_id: int) -> None:
        """Point this bot at ``table_id``: its monitor and its daphne (by table, as a proxy would)."""
        old = self.monitor
        now = time.monotonic()
        for m in list(old.pending):
            if self in m.waiting:
                m.waiting.discard(self)
                if not m.waiting:
                    old.stats.served(m, now)
                    old.pending.remove(m)
        self.account.table_id = table_id
        self.monitor = self.h.monitor(table_id)
        self.port_index = (table_id if self.route == "table" else self.account.user_id) % len(self.ports)
        self.version = -1
        self.tables.append(table_id)

    async def run(self) -> None:
        while not self.h.stop.is_set():
            table_id = await self.find_table()
            if table_id is None:
                self.out = True
                self.follow(0)  # off every table: no action waits for this screen any more
                return
            if table_id != self.account.table_id:
                self.follow(table_id)
            await self.one_socket()

    async def one_socket(self) -> None:
        """One socket at the current table, until it closes (on purpose when the seat moved)."""
        attempt = 0
        while not self.h.stop.is_set():
            port = self.ports[(self.port_index + attempt) % len(self.ports)]
            try:
                ws = await WebSocket.connect(
                    HOST,
                    port,
                    f"/ws/tables/{self.account.table_id}/",
                    headers={"Origin": f"http://127.0.0.1:{port}", "Cookie": f"sessionid={self.account.session_key}"},
                    timeout=CONNECT_TIMEOUT,
                    answer_timeout=ANSWER_TIMEOUT,
                )
            except (TimeoutError, OSError, HandshakeError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                self.stats.connect_failures += 1
                attempt += 1
                await self.h.sleep(self.reconnect.failed())  # as the page does (``backoff``)
                continue
            break
        else:
            return
        self.stats.connects += 1
        self.port, self.connected_at, self.shown_at = port, time.monotonic(), None
        self.opened_at = self.opened_at or self.connected_at
        self.reconnect.opened(self.connected_at)
        self.turn_seen = self.turn_acted = None
        self.ws, self.drained, self.seated_here, self.moving = ws, False, False, False
        self.monitor.sockets.add(self)
        try:
            while True:
                _, payload = await ws.recv()
                self.on_frame(payload.decode("utf-8", "replace"))
        except ConnectionClosed as closed:
            if not getattr(ws, "on_purpose", False) and not self.h.stop.is_set():
                self.stats.unexpected_closes += 1
                await self.h.sleep(self.reconnect.closed(closed.code if closed.clean else None, time.monotonic()))
        finally:
            ws.abort()
            self.monitor.detach(self)
            self.ws = None
            self.controls = None
            if self.task and not self.task.done():
                self.task.cancel()

    def on_frame(self, text: str) -> None:
        super().on_frame(text)
        if self.first_shown_at is None:
            self.first_shown_at = self.shown_at
        panel = split_fragments(text).get("seat-panel")
        if panel is None:
            return
        if 'class="seat-summary"' in panel:
            self.seated_here = True
        elif self.seated_here and not self.moving and self.ws is not None:
            # No seat here any more: moved to another table, or out. The page says which.
            self.moving = True
            self.ws.on_purpose = True
            self.keep(asyncio.ensure_future(self.ws.close()))

    def maybe_come_back(self) -> None:
        """A tournament seat sitting out (timed out) comes back; there is nothing to top up."""
        if self.stack:
            super().maybe_come_back()
