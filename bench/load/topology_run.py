"""``python -m bench.load topology``: the load run through the README's production topology.

``bench.topology`` builds it on this machine with network namespaces as hosts: nginx on
``omaha-proxy`` hashing each socket's path (``/ws/tables/<id>/``) to one of four daphne
processes, two on ``omaha-web1`` (with the celery worker and beat) and two on
``omaha-web2``, PostgreSQL and Redis on ``omaha-db``. The harness runs in the root
namespace: it builds the world in the topology's database and its bots connect to the
proxy's address only. ``--kill-after`` seconds into the measured window it kills -9 every
process of ``--kill-host`` (``omaha-web2``, the host without beat): the proxy closes the
sockets that were on it, the bots connect again through it and land on the other host.

Figures ``topology``: the sockets on each host at the kill (the proxy's connections to their
daphne ports), the sockets the proxy closed, the seconds until every one of them had a new
socket that showed its snapshot and until every screen of every table had been shown the
version its table had then, where the sockets were afterwards, and the latency p50/p99
before the kill and per ``--window`` after it. Fails (as ``storm``) when a socket did not
come back or a screen did not catch up within 30 s, when no window ending within
``--recover-within`` seconds of the moment every socket was back had a p99 at most
``--p99-ms``, on a hand still running after the drain, on the chip audit (the topology's
database), on an error line in the log of a process that was not killed, and when ``down``
leaves a namespace or a process behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import time
from pathlib import Path

from bench.topology import HOSTS, LOAD_ENV, PROXY_PORT, STATE, WEB_PORTS, Topology

from .faults import CATCH_UP_LIMIT, catch_up_seconds
from .stack import ERROR_PATTERN

WEB_HOSTS = ("omaha-web1", "omaha-web2")


class TopologyStack:
    """What the runs need of a stack (``runs.run_play``), for the topology's processes: the
    bots connect to the proxy; CPU, logs and ``/metrics`` are each process's."""

    probe = False  # config.asgi as deployed: no SQL counter

    def __init__(self, topology: Topology, log_dir: Path):
        self.topology, self.log_dir = topology, log_dir
        self.env = topology.env()
        self.host, self.ports = HOSTS["omaha-proxy"], [PROXY_PORT]
        self.killed_hosts: list[str] = []
        log_dir.mkdir(parents=True, exist_ok=True)

    @property
    def metrics_addresses(self) -> list[tuple[str, int]]:
        return [(HOSTS[host], port) for host in WEB_HOSTS for port in WEB_PORTS]

    def survivors(self) -> dict[str, int]:
        return {
            name: pid
            for name, pid in self.topology.processes().items()
            if not any(name.startswith(f"{host}-") for host in self.killed_hosts)
        }

    def process_groups(self) -> dict[str, list[int]]:
        """{kind: process groups}: ``web`` (the daphnes), ``worker``, ``beat``, ``proxy``; the
        database host's are counted as ``postgres`` (the bench database's backends) and ``redis``."""
        groups: dict[str, list[int]] = {}
        for name, pid in self.survivors().items():
            kind = next((k for k, part in _KINDS.items() if part in name), None)
            if kind is not None:
                groups.setdefault(kind, []).append(pid)
        return groups

    def _log(self, name: str) -> Path:
        return STATE / f"{name}.log"

    def log_offsets(self) -> dict[str, int]:
        names = [*self.topology.processes(), "nginx-error"]
        return {name: (self._log(name).stat().st_size if self._log(name).exists() else 0) for name in names}

    def errors_since(self, offsets: dict[str, int] | None = None, names: tuple[str, ...] | None = None) -> list[str]:
        """Error lines in the logs of the processes that were not killed (or of ``names``)."""
        found = []
        for name in names or tuple(self.survivors()):
            lines = _read_since(self._log(name), (offsets or {}).get(name, 0)).splitlines()
            for i, line in enumerate(lines):
                if ERROR_PATTERN.search(line):
                    found.append(f"{name}: " + " | ".join(lines[i : i + 12])[:1500])
        return found

    def count_since(self, offsets: dict[str, int], text: str) -> int:
        """Lines with ``text`` in the surviving processes' logs since ``offsets``."""
        return sum(_read_since(self._log(name), offsets.get(name, 0)).count(text) for name in self.survivors())

    def proxy_errors_since(self, offsets: dict[str, int]) -> list[str]:
        """nginx's ``[error]`` lines (upstreams refused or reset while a host is down)."""
        text = _read_since(STATE / "nginx-error.log", offsets.get("nginx-error", 0))
        return [line for line in text.splitlines() if "[error]" in line]

    def keep_logs(self) -> None:
        """Every process's log and nginx's configuration into the run's directory (``down`` deletes them)."""
        for path in [*STATE.glob("*.log"), STATE / "nginx.conf"]:
            with contextlib.suppress(OSError):
                shutil.copy(path, self.log_dir / path.name)


_KINDS = {"web": "-daphne-", "worker": "-worker", "beat": "-beat", "proxy": "-nginx"}


def _read_since(path: Path, offset: int) -> str:
    try:
        with path.open("rb") as f:
            f.seek(offset)
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def host_kill_task(stack: TopologyStack, *, host: str, after: float, log=print):
    """An async callable for ``session.play(fault_task=...)``: ``after`` seconds into the window,
    kill -9 every process of ``host`` and measure from the kill the seconds until every socket
    the proxy closed had a new socket (through the proxy) that showed its snapshot, then until
    every screen caught up with its table's version. Its one event is filled in as it goes."""
    topology = stack.topology
    events: list[dict] = []

    def count() -> dict[str, int]:
        return {name: topology.established(name) for name in WEB_HOSTS}

    async def run(harness) -> list[dict]:
        loop = asyncio.get_running_loop()
        await harness.sleep(after)
        if harness.stop.is_set():
            return events
        connected = [bot for monitor in harness.monitors.values() for bot in list(monitor.sockets)]
        before = await loop.run_in_executor(None, count)
        killed = time.monotonic()
        stack.killed_hosts.append(host)
        names = await loop.run_in_executor(None, topology.kill_host, host)
        event: dict[str, object] = {
            "n": 1,
            "fault": f"kill -9 {host}",
            "killed": names,
            "killed_at": killed,
            "sockets_connected": len(connected),
            "sockets_by_host": before,
            "sockets": before[host],
            "dropped": 0,
            "reconnected": 0,
            "reconnected_s": None,
            "caught_up_s": None,
        }
        events.append(event)
        log(f"  kill -9 {host} ({', '.join(names)}) with {before[host]} of {len(connected)} sockets ({before})")
        back: dict[object, float] = {}
        # Past CATCH_UP_LIMIT the run has failed; it goes on watching as long again, for the figure.
        while not harness.stop.is_set():
            # The sockets that were on the host: those the proxy closed once it was killed.
            dropped = [bot for bot in connected if bot.lost_at is not None and bot.lost_at >= killed]
            for bot in dropped:
                if bot.ws is not None and bot.connected_at > bot.lost_at and bot.shown_at is not None:
                    back.setdefault(bot, bot.shown_at)
            event["dropped"], event["reconnected"] = len(dropped), len(back)
            waited = time.monotonic() - killed
            if waited <= CATCH_UP_LIMIT:
                event["reconnected_within_limit"] = len(back)
            if (waited > 1.0 and len(dropped) >= before[host] and len(back) == len(dropped)) or (
                waited > 2 * CATCH_UP_LIMIT
            ):
                break
            await asyncio.sleep(0.05)
        if dropped and len(back) == len(dropped):
            event["reconnected_s"] = round(max(back.values()) - killed, 2)
            log(f"  {len(back)} sockets back through the proxy {event['reconnected_s']}s after the kill")
        else:
            log(f"  only {len(back)} of {len(dropped)} dropped sockets back within {2 * CATCH_UP_LIMIT}s")
        if await catch_up_seconds(harness, list(harness.monitors), log) is not None:
            event["caught_up_s"] = round(time.monotonic() - killed, 2)
        event["sockets_by_host_after"] = await loop.run_in_executor(None, count)
        event["sockets_connected_after"] = sum(len(m.sockets) for m in harness.monitors.values())
        log(
            f"  every screen caught up {event['caught_up_s']}s after the kill; sockets now {event['sockets_by_host_after']}"
        )
        return events

    run.events = events
    run.planned = 1
    return run


def run_topology(
    stack: TopologyStack,
    *,
    tables: int,
    pace: float,
    host: str = "omaha-web2",
    kill_after: float = 10.0,
    window: float = 2.0,
    p99_ms: float = 100.0,
    recover_within: float = 10.0,
    log=print,
    **play,
) -> dict:
    """``runs.run_play`` through the proxy at ``pace`` with every process of ``host`` killed -9
    ``kill_after`` seconds into the measured window; figures ``topology``, failures as the
    module says."""
    from . import runs
    from .report import back_under, stays_under, windows

    offsets = stack.log_offsets()

    def analyse(result, figures) -> list[str]:
        if not result.faults:
            return [f"{host} was not killed within the run"]
        event = dict(result.faults[0])
        start, end = result.started_at, result.started_at + result.seconds
        killed = event.pop("killed_at")
        rows = windows(
            result.samples,
            start=killed,
            end=end,
            width=window,
            unresolved_sent=result.unresolved_sent,
            asked_per_second=tables / pace,
        )
        back = event["reconnected_s"] or 0.0
        section = {
            **event,
            "killed_at_s": round(killed - start, 1),
            "before_kill": runs._span(result, start, killed, tables / pace),
            "after_kill": runs._span(result, killed, end, tables / pace),
            "p99_bound_ms": p99_ms,
            "p99_back_under_s": back_under(rows, p99_ms, not_before=back),
            "p99_stays_under_s": stays_under(rows, p99_ms),
            "window_s": window,
            "windows_after_kill": rows,
            "proxy_error_lines": len(stack.proxy_errors_since(offsets)),
            "killed_host_error_lines": stack.errors_since(offsets, names=tuple(event["killed"]))[:5],
            # daphne's "Application instance ... took too long to shut down and was killed": a
            # socket closed (a bot gives up a handshake after 5 s) while its consumer was still busy
            "instances_killed_on_close": stack.count_since(offsets, "took too long to shut down"),
        }
        figures["topology"] = section
        failures = []
        if not event["dropped"]:
            failures.append(f"no socket was closed by the proxy when {host} was killed ({event['sockets']} were on it)")
        elif event.get("reconnected_within_limit", 0) < event["dropped"]:
            failures.append(
                f"only {event.get('reconnected_within_limit', 0)} of the {event['dropped']} sockets of {host} "
                f"reconnected within {CATCH_UP_LIMIT}s (all of them: {event['reconnected_s']}s)"
            )
        elif event["caught_up_s"] is None or event["caught_up_s"] > event["reconnected_s"] + CATCH_UP_LIMIT:
            failures.append(f"not every screen caught up with its table's version after the kill of {host}")
        if event.get("sockets_by_host_after", {}).get(host):
            failures.append(f"sockets still counted on {host} after its kill: {event['sockets_by_host_after']}")
        recovered = section["p99_back_under_s"]
        if recovered is None or recovered > back + recover_within:
            failures.append(
                f"p99 not back under {p99_ms} ms within {recover_within}s of every socket being back "
                f"(first back under {recovered}s after the kill; windows' p99 {[row['p99'] for row in rows]})"
            )
        return failures

    task = host_kill_task(stack, host=host, after=kill_after, log=log)
    figures = runs.run_play(
        stack, tables=tables, pace=pace, min_served=0.0, fault=task, analyse=analyse, log=log, **play
    )
    figures["web_processes"] = len(stack.metrics_addresses)
    return figures


def leftovers(pids: list[int]) -> dict:
    """What ``down`` left behind: namespaces and links named omaha-*, live processes of ``pids``, the state dir."""
    netns = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split()
    links = subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True).stdout
    alive = []
    for pid in pids:
        try:
            os.kill(pid, 0)
            alive.append(pid)
        except ProcessLookupError:
            pass
    return {
        "namespaces": [ns for ns in netns if ns.startswith("omaha-")],
        "links": sorted(
            {
                word.split("@")[0].rstrip(":")
                for word in links.split()
                if word.startswith(("omaha-", "om0", "om1", "om2", "om3"))
            }
        ),
        "processes": alive,
        "state_dir": STATE.exists(),
    }


def main(args, log_dir: Path, play: dict, log=print) -> dict:
    """Bring the topology up with the load knobs (unless ``--existing``), play (``play``: the
    paced runs' ``run_play`` arguments), kill, take it down."""
    topology = Topology()
    owned = not args.existing
    if owned:
        log("bench.topology up --load")
        try:
            topology.up(LOAD_ENV)
        except BaseException:
            topology.down()
            raise
    elif not topology.state:
        raise SystemExit("no topology is up: python -m bench.topology up --load")
    elif any(topology.state.get("env", {}).get(key) != value for key, value in LOAD_ENV.items()):
        raise SystemExit("the topology is not up with the load knobs: python -m bench.topology up --load")
    pids = list(topology.processes().values())
    stack = TopologyStack(topology, log_dir)
    figures: dict = {}
    try:
        os.environ.update(stack.env)
        import django

        django.setup()
        log(
            f"topology up: proxy http://{stack.host}:{PROXY_PORT}/, readiness {topology.readiness()}; logs in {log_dir}"
        )
        figures = run_topology(
            stack,
            tables=args.tables,
            pace=args.pace,
            host=args.kill_host,
            kill_after=args.kill_after,
            window=args.window,
            p99_ms=args.p99_ms,
            recover_within=args.recover_within,
            log=log,
            **play,
        )
    finally:
        from django.db import connections

        connections.close_all()
        stack.keep_logs()
        if owned:
            topology.down()
    if owned:
        figures["left_behind"] = left = leftovers(pids)
        if any(left.values()):
            figures.setdefault("failures", []).append(f"bench.topology down left {left}")
    figures["topology_hosts"] = {**HOSTS, "harness": "10.77.0.1 (root namespace)"}
    return figures
