"""Private Redis and PostgreSQL servers for the fault runs: each on a free loopback port with
a directory of its own under /tmp, started and stopped by this process only (by PID), so
killing and restarting them touches nothing else on the machine.

- ``PrivateRedis``: ``redis-server`` keeping nothing on disk, so a restart comes back empty
  (every channel group membership and queued message gone), as a production Redis does
  without persistence.
- ``PrivatePostgres``: a cluster made by ``initdb``, its postmaster run in the foreground;
  restarted either with ``pg_ctl stop -m fast`` or with kill -9 of the postmaster alone.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from .stack import _LIVE, HOST, free_port

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _pg_tool(name: str) -> str:
    found = PG_BIN / name
    return str(found) if found.exists() else (shutil.which(name) or name)


def _wait_port(port: int, timeout: float, alive=lambda: True) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive():
            raise RuntimeError(f"server on port {port} exited")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout}s")


class _Server:
    """A server process in its own process group, logging to ``log_path``."""

    name = "server"

    def __init__(self, log_dir: Path):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix=f"bench-{self.name}-"))
        self.log_path = log_dir / f"{self.name}.log"
        self.popen: subprocess.Popen | None = None
        self.starts = 0

    def command(self) -> list[str]:
        raise NotImplementedError

    def popen_options(self) -> dict:
        return {}

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            log.write(f"\n===== start #{self.starts + 1} {time.strftime('%H:%M:%S')} =====\n".encode())
            log.flush()
            self.popen = subprocess.Popen(
                self.command(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True, **self.popen_options()
            )
        self.starts += 1
        if self not in _LIVE:
            _LIVE.append(self)
        _wait_port(self.port, 60, alive=lambda: self.popen.poll() is None)

    def kill9(self) -> None:
        """kill -9 the server process alone (its children notice and exit)."""
        if self.popen is not None and self.popen.poll() is None:
            os.kill(self.popen.pid, signal.SIGKILL)
            self.popen.wait(10)
        self._wait_group_gone()

    def _wait_group_gone(self, timeout: float = 30) -> None:
        if self.popen is None:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.killpg(self.popen.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)

    def stop(self, timeout: float = 10) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout)
        if self.popen is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(5)
        if self in _LIVE:
            _LIVE.remove(self)
        shutil.rmtree(self.dir, ignore_errors=True)

    def tail(self, chars: int = 2000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


class PrivateRedis(_Server):
    name = "redis"

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def command(self) -> list[str]:
        return [
            "redis-server",
            "--bind",
            HOST,
            "--port",
            str(self.port),
            "--dir",
            str(self.dir),
            "--save",
            "",
            "--appendonly",
            "no",
        ]

    def restart_empty(self) -> None:
        """kill -9 and start again: nothing survives (no persistence)."""
        self.kill9()
        self.start()


class PrivatePostgres(_Server):
    name = "postgres"

    def __init__(self, log_dir: Path):
        super().__init__(log_dir)
        self.data = self.dir / "data"
        self.owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None  # initdb refuses root
        if self.owner is not None:
            os.chown(self.dir, self.owner.pw_uid, self.owner.pw_gid)
        subprocess.run(
            [_pg_tool("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
            check=True,
            capture_output=True,
            **self.popen_options(),
        )

    def start(self) -> None:
        super().start()
        import psycopg

        deadline = time.monotonic() + 60
        while True:  # listening is not accepting: it may still be recovering
            try:
                psycopg.connect(
                    f"host={HOST} port={self.port} user=postgres dbname=postgres", connect_timeout=2
                ).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def url(self, database: str) -> str:
        return f"postgres://postgres@{HOST}:{self.port}/{database}"

    def popen_options(self) -> dict:
        return {"user": self.owner.pw_uid, "group": self.owner.pw_gid} if self.owner else {}

    def command(self) -> list[str]:
        # fsync off: a bench cluster thrown away afterwards; kill -9 still loses no committed
        # transaction here, as the operating system itself does not crash.
        return [
            _pg_tool("postgres"),
            "-D",
            str(self.data),
            "-p",
            str(self.port),
            "-k",
            str(self.dir),
            "-c",
            f"listen_addresses={HOST}",
            "-c",
            "fsync=off",
            "-c",
            "max_connections=200",
        ]

    def restart_fast(self) -> None:
        """``pg_ctl stop -m fast`` (sessions are ended, in-flight transactions roll back), then start."""
        subprocess.run(
            [_pg_tool("pg_ctl"), "stop", "-D", str(self.data), "-m", "fast", "-w"],
            check=False,
            capture_output=True,
            **self.popen_options(),
        )
        if self.popen is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(30)
        self._wait_group_gone()
        self.start()

    def restart_after_kill9(self) -> None:
        """kill -9 of the postmaster alone, then start: crash recovery replays the WAL. A new
        postmaster refuses to start while a backend of the old one is still attached to the
        shared memory (its backends exit once they notice), so starting is tried again a while."""
        self.kill9()
        deadline = time.monotonic() + 30
        while True:
            try:
                self.start()
                return
            except RuntimeError:  # "server on port N exited": an old backend still holds the memory
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
