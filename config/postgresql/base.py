"""Django's PostgreSQL backend, with a health check that costs no round trip while the
server has said nothing.

``CONN_HEALTH_CHECKS`` makes Django check a persistent connection before its first use after
each request (channels' ``database_sync_to_async`` counts every call as one), with a
``SELECT 1``: a round trip per action. Between statements the server sends nothing on an idle
connection, unless it is ending it (a restart, a terminated backend: an error message, then the
socket's end) or a notification is waiting. So when the socket has nothing to read and psycopg
does not know the connection broken, the connection is as usable as a ``SELECT 1`` would find
it (which cannot see a silent network failure either); when it has something, the full check
runs as before.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQLDatabaseWrapper
from django.db.backends.postgresql.operations import DatabaseOperations as PostgreSQLDatabaseOperations
from psycopg.pq import TransactionStatus


class DatabaseOperations(PostgreSQLDatabaseOperations):
    def last_executed_query(self, cursor, sql, params):  # type: ignore[no-untyped-def]  # Django's signature
        # A statement psycopg has prepared (``tables.services.owned_tables.bound_cursor``) keeps no
        # text on its cursor: the query log (and the tests counting statements) get it as sent.
        return super().last_executed_query(cursor, sql, params) or sql


class DatabaseWrapper(PostgreSQLDatabaseWrapper):
    ops_class = DatabaseOperations

    def close_if_health_check_failed(self) -> None:
        if self.connection is None or not self.health_check_enabled or self.health_check_done:
            return
        if self._quiet():
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def _quiet(self) -> bool:
        """The connection is idle, not known broken, and the server has sent nothing since."""
        connection = self.connection
        try:
            if connection.closed or connection.broken or connection.pgconn.transaction_status != TransactionStatus.IDLE:
                return False
            poller = select.poll()
            poller.register(connection.fileno(), select.POLLIN | select.POLLPRI)
            return not poller.poll(0)  # POLLIN, POLLHUP or POLLERR: something to read, or the end
        except (OSError, ValueError):
            return False
