"""Every metric the room exports in Prometheus' format, defined once here: the code that does
the work only increments (``metrics.ACTIONS.labels("applied", "").inc()``).

No label names a table or a player: hundreds of tables must not mean hundreds of series.
Counters and histograms only on the action path (a few microseconds each, no I/O); what
needs a query (tables running, round trips to PostgreSQL and Redis) is measured when
``/metrics`` is read (``operations.exposition``).

Processes that fork (a Celery worker with the prefork pool) set ``PROMETHEUS_MULTIPROC_DIR``
(a directory of their own, emptied before start): the client library then keeps each
process's values in files there and the process that serves them adds them up
(``docs/operations.md``).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Seconds: from a few hundred microseconds (an action on a warm table) to a stuck second.
_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_CLOCK = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)

ACTIONS = Counter(
    "omaha_actions",
    "Frames of a table's socket that asked a service for a change: applied, or refused (reason: the refusal's kind).",
    ["result", "reason"],
)
ACTION_WRITES = Counter(
    "omaha_action_writes",
    "Player actions written: held (applied to the rows the table's owner holds, one round trip), "
    "locked (read under the table's lock: the table written by another since, or the owner's rows not held).",
    ["way"],
)
ACTION_SECONDS = Histogram(
    "omaha_action_seconds",
    "A table socket's frame: from received to the change committed and its screens handed to the channel layer.",
    buckets=_FAST,
)
PUBLISH_SECONDS = Histogram(
    "omaha_screens_publish_seconds",
    "A table's change: from committed to its screens published to every socket's group.",
    buckets=_FAST,
)
PUBLISH_FAILURES = Counter(
    "omaha_channel_layer_publish_failures",
    "Messages the channel layer did not take (Redis away): screens, chat, mutes.",
    ["what"],
)
HANDS = Counter("omaha_hands", "Hands by event: started, completed, cancelled.", ["event"])
SOCKETS_OPEN = Gauge(
    "omaha_sockets_open",
    "Websockets open now, by page (table, lobby) and viewer (logged_in, anonymous).",
    ["page", "viewer"],
    multiprocess_mode="livesum",
)
for _page in ("table", "lobby", "tournaments", "staff"):
    for _viewer in ("logged_in", "anonymous"):
        SOCKETS_OPEN.labels(_page, _viewer)  # exported at 0 before the first socket: the dashboard reads it
CONNECTS_REFUSED = Counter(
    "omaha_connects_refused",
    "Websockets refused: too_many_per_ip, too_many_per_user, no_table, busy (1013, past the bound of work in flight), "
    "tables_full (1013, a table not served by a process that serves its most tables).",
    ["reason"],
)
TABLES_SERVED = Gauge(
    "omaha_tables_served",
    "Tables with a socket open in a web process, at most WEBSOCKET_MAX_TABLES each (summed over the processes).",
    multiprocess_mode="livesum",
)
TABLES_PLAYING = Gauge(
    "omaha_tables_playing",
    "Tables with a seated player's screen shown by a web process (summed over the processes).",
    multiprocess_mode="livesum",
)
SNAPSHOTS = Counter(
    "omaha_snapshots",
    "Whole screens sent again to an open table socket, by why the change could not go as its pieces: "
    "behind (a message lost), language (not rendered in the socket's language), seat_forms (a watcher's "
    "seat forms changed), unseen (a piece the socket did not show lately).",
    ["reason"],
)
CLOCK_TICKS = Counter("omaha_clock_ticks", "Ticks of the table clock that ran to their end.")
CLOCK_FAILED_TICKS = Counter("omaha_clock_failed_ticks", "Ticks of the table clock cut short by an outage.")
CLOCK_LAST_TICK = Gauge(
    "omaha_clock_last_tick_timestamp_seconds",
    "When the table clock last ran a tick to its end (Unix time).",
    multiprocess_mode="max",
)
CLOCK_LAG = Histogram(
    "omaha_clock_lag_seconds",
    "How late the clock enforced a turn's deadline: expired minus deadline.",
    buckets=_CLOCK,
)
TIMEOUTS = Counter(
    "omaha_timeouts",
    "Turns the clock ran out, by outcome: fold, check, protected_all_in, time_bank (the bank started).",
    ["outcome"],
)
for _outcome in ("fold", "check", "protected_all_in", "time_bank"):
    TIMEOUTS.labels(_outcome)  # exported at 0 before the first timeout: the dashboard's panel reads it
LEDGER_MOVEMENTS = Counter("omaha_ledger_movements", "Chip movements written to the ledger, by kind.", ["kind"])
CHAT_LINES = Counter("omaha_chat_lines", "Chat lines stored: player or dealer.", ["author"])
ACTIONS_APPLIED = ACTIONS.labels("applied", "")
GC_PAUSE_SECONDS = Histogram(
    "omaha_gc_pause_seconds",
    "The garbage collector's pauses in a server process, by generation (2: a full collection).",
    ["generation"],
    buckets=_FAST,
)
LOOP_LAG_SECONDS = Histogram(
    "omaha_loop_lag_seconds",
    "How late a web process's event loop ran a callback asked for every quarter second (tables/realtime/loop_lag.py).",
    buckets=_FAST,
)
STAFF_ACTIONS = Counter("omaha_staff_actions", "Staff actions done from the admin, by kind.", ["kind"])


def refusal_reason(error: BaseException) -> str:
    """A refusal's label: its class name, a bounded set (the services' refusal kinds)."""
    return type(error).__name__


# Every series of a bounded label exists from the start, at 0: rate() and the alert rules see a
# quiet room as 0, not as no data.
for _reason in ("too_many_per_ip", "too_many_per_user", "no_table", "busy", "tables_full"):
    CONNECTS_REFUSED.labels(_reason)
for _reason in ("behind", "language", "seat_forms", "unseen"):
    SNAPSHOTS.labels(_reason)
for _what in ("screens", "chat", "mutes"):
    PUBLISH_FAILURES.labels(_what)
for _event in ("started", "completed", "cancelled"):
    HANDS.labels(_event)
