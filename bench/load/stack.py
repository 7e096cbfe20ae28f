"""Start and stop the production stack on loopback: daphne process(es), a celery worker, celery beat.

PostgreSQL and Redis are expected on 127.0.0.1 already. Every process runs in
its own process group (``start_new_session``) so a stop, a kill -9 or the
harness's own exit takes its children with it. ``Stack`` is a context
manager, and an ``atexit`` hook stops whatever is still running.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
# The listen queue of each daphne, as the Procfile sets it: a connect storm waits in the
# kernel's queue instead of its connects being dropped (Twisted's default is 50; 1,024 dropped
# them at 800 tables, 2,400 sockets a process) and tried again by the clients' TCP a second or
# three later. Linux caps it at net.core.somaxconn (4,096 by default).
LISTEN_BACKLOG = 4096
# How long each daphne waits for the application to answer a socket's handshake, as the Procfile
# sets it: daphne's own 5 s dropped the first sockets of a room starting past its capacity on a
# slow machine (answered in 5 to 8 s behind the storm's refusals), and with them the tables they
# had taken, which other tables then took with players still waiting out their refusals.
HANDSHAKE_SECONDS = 30
_LIVE: list[Proc] = []
ERROR_PATTERN = re.compile(r"Traceback|\bERROR\b|\bCRITICAL\b|Exception in|Task handler raised error")


def bench_env(*, database_url: str, redis_url: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of every stack process (and of the harness itself: same SECRET_KEY for sessions)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CACHE_URL": redis_url,  # the socket counts live with the layer, and restart with it
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONUNBUFFERED": "1",
    }
    env.setdefault("SECRET_KEY", "bench-load-harness-secret-key-not-for-production-0123456789")
    env["DEBUG"] = "0"  # measured as deployed, whatever the shell that runs it says
    env.setdefault("SECURE_SSL_REDIRECT", "0")  # plain HTTP on loopback
    env.setdefault("HAND_PAUSE_SECONDS", "0.5")
    env.setdefault("LOG_LEVEL", "WARNING")
    env.setdefault("CONN_MAX_AGE", "60")
    # Every bot connects from loopback, and the hostile run sends frames as fast as it can: the
    # per-address socket cap and the frame rate limit (pinned by the suite) would only measure
    # themselves here.
    env.setdefault("WEBSOCKET_MAX_PER_IP", "1000000")
    env.setdefault("WEBSOCKET_FRAME_BURST", "1000000")
    env.update(extra or {})
    return env


@dataclass
class Proc:
    name: str
    args: list[str]
    env: dict[str, str]
    log_path: Path
    port: int | None = None
    popen: subprocess.Popen | None = None
    starts: int = 0
    kills: int = 0

    def start(self) -> None:
        log = self.log_path.open("ab")
        log.write(f"\n===== start #{self.starts + 1} {time.strftime('%H:%M:%S')} =====\n".encode())
        log.flush()
        self.popen = subprocess.Popen(
            self.args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        self.starts += 1
        if self not in _LIVE:
            _LIVE.append(self)

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def signal_group(self, sig: int) -> None:
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, sig)

    def kill9(self) -> None:
        """kill -9 the process and its children (its whole process group)."""
        self.signal_group(signal.SIGKILL)
        if self.popen is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(10)
        self.kills += 1

    def stop(self, timeout: float = 10.0) -> None:
        if self.popen is None:
            return
        if self.popen.poll() is None:
            self.signal_group(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout)
        self.signal_group(signal.SIGKILL)  # children left behind by a dead parent, too
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(5)
        if self in _LIVE:
            _LIVE.remove(self)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive:
                raise RuntimeError(f"{self.name} exited: {self.tail()}")
            if self.port is None:
                return
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.name} not ready after {timeout}s: {self.tail()}")

    def tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


def _stop_all() -> None:
    for proc in list(_LIVE):
        proc.stop(timeout=3)


atexit.register(_stop_all)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@dataclass
class Stack:
    """``web`` daphne processes on consecutive loopback ports, one worker, one beat."""

    env: dict[str, str]
    log_dir: Path
    web: int = 1
    base_port: int | None = None
    worker_concurrency: int = 2
    probe: bool = True  # daphne and the worker count their SQL statements (bench.load.probe*); False: plain apps
    beat: bool = True
    procs: dict[str, Proc] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        py = sys.executable
        app = "bench.load.probe:application" if self.probe else "config.asgi:application"
        env = {**self.env, "BENCH_PROBE_DIR": str(self.log_dir)}
        for i in range(self.web):
            port = (self.base_port + i) if self.base_port else free_port()
            self.procs[f"web{i}"] = Proc(
                f"web{i}",
                [
                    py,
                    "-m",
                    "daphne",
                    "-e",
                    f"tcp:port={port}:interface={HOST}:backlog={LISTEN_BACKLOG}",
                    "--application-close-timeout",
                    "5",
                    "--websocket_connect_timeout",
                    str(HANDSHAKE_SECONDS),
                    app,
                ],
                env,
                self.log_dir / f"web{i}.log",
                port=port,
            )
        self.procs["worker"] = Proc(
            "worker",
            [
                py,
                "-m",
                "celery",
                "-A",
                "bench.load.probe_worker" if self.probe else "config",
                "worker",
                "--loglevel=WARNING",
                "--without-mingle",
                "--without-gossip",
                "--without-heartbeat",
                f"--concurrency={self.worker_concurrency}",
                "-n",
                f"bench-{os.getpid()}@%h",
            ],
            env,
            self.log_dir / "worker.log",
        )
        if self.beat:
            self.procs["beat"] = Proc(
                "beat",
                [
                    py,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "beat",
                    "--loglevel=WARNING",
                    "--schedule",
                    str(self.log_dir / "beat-schedule"),
                ],
                env,
                self.log_dir / "beat.log",
            )

    @property
    def ports(self) -> list[int]:
        return [p.port for name, p in self.procs.items() if name.startswith("web")]

    @property
    def host(self) -> str:
        """The address the bots connect to (each port of ``ports`` on it)."""
        return HOST

    @property
    def metrics_addresses(self) -> list[tuple[str, int]]:
        """Where each web process serves ``/metrics``."""
        return [(HOST, port) for port in self.ports]

    @property
    def web_procs(self) -> list[Proc]:
        return [p for name, p in self.procs.items() if name.startswith("web")]

    def start(self) -> Stack:
        for proc in self.procs.values():
            proc.start()
        for proc in self.procs.values():
            proc.wait_ready()
        return self

    def restart(self, name: str) -> None:
        proc = self.procs[name]
        proc.start()
        proc.wait_ready()

    def stop(self) -> None:
        for proc in self.procs.values():
            proc.signal_group(signal.SIGTERM)
        for proc in self.procs.values():
            proc.stop()

    def __enter__(self) -> Stack:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()

    def process_groups(self) -> dict[str, list[int]]:
        """{kind: process group ids} of the live processes ("web", "worker", "beat")."""
        groups: dict[str, list[int]] = {}
        for name, proc in self.procs.items():
            if proc.alive:
                groups.setdefault(name.rstrip("0123456789"), []).append(proc.popen.pid)
        return groups

    def log_offsets(self) -> dict[str, int]:
        return {name: (p.log_path.stat().st_size if p.log_path.exists() else 0) for name, p in self.procs.items()}

    def errors_since(self, offsets: dict[str, int] | None = None, names: tuple[str, ...] | None = None) -> list[str]:
        """Error lines (tracebacks, ERROR logs) the processes wrote since ``offsets``."""
        found = []
        for name, proc in self.procs.items():
            if names and name not in names:
                continue
            if not proc.log_path.exists():
                continue
            with proc.log_path.open("rb") as f:
                f.seek((offsets or {}).get(name, 0))
                text = f.read().decode("utf-8", "replace")
            lines = text.splitlines()
            for i, line in enumerate(lines):
                if ERROR_PATTERN.search(line):
                    found.append(f"{name}: " + " | ".join(lines[i : i + 12])[:1500])
        return found


def database_url(name: str, base: str = "postgres://postgres@127.0.0.1:5432") -> str:
    return f"{base.rstrip('/')}/{name}"


def recreate_database(name: str, port: int = 5432) -> None:
    """Drop and create the bench database (psql on loopback, trust auth)."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name) or name in ("postgres", "poker", "template0", "template1"):
        raise ValueError(f"refusing to recreate database {name!r}")
    import psycopg

    with psycopg.connect(f"host={HOST} port={port} user=postgres dbname=postgres", autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def flush_redis_db(url: str) -> None:
    import redis

    if not re.search(r"/(\d+)$", url) or url.endswith("/0"):
        raise ValueError(f"refusing to flush redis {url}: use a dedicated DB number")
    redis.Redis.from_url(url).flushdb()
