"""python -m bench.slow_machine --cores C -- COMMAND...  (as root, on Linux; from the repository root)

Runs COMMAND (a benchmark: ``python -m bench.load ...``) on a slower machine than this one:
COMMAND, every process it starts, and the PostgreSQL and Redis servers it talks to share at
most ``C`` cores of CPU time (a CPU cgroup's quota, enforced every ``--period-ms``). A room
that falls over on a slow machine must be shown falling over, and a bound that follows the
machine shown holding, without finding such a machine: at ``--cores 1`` on two cores each
process gets about half the CPU time it would, the way a machine of half the speed gives it.

Busy loops beside the benchmark do not stand in for this: the kernel shares the cores fairly
between all runnable threads, and a room of dozens of processes gets nearly all of them
against two hogs (bench/load/README.md). A quota caps the room itself.

PostgreSQL's postmaster and redis-server are moved into the group for the run (new backends
fork from the postmaster and stay in it) and moved back at the end, as is this process, also
when it is stopped (SIGTERM is passed on to COMMAND first).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

GROUP_NAME = "omaha-slow-machine"
CGROUP_V2 = Path("/sys/fs/cgroup")
CGROUP_V1_CPU = Path("/sys/fs/cgroup/cpu")


def _servers() -> list[int]:
    """The PostgreSQL postmasters and redis-servers running here (the oldest postgres of each
    cluster is its postmaster: its parent is not a postgres)."""
    pids = []
    for name in ("postgres", "redis-server"):
        found = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True).stdout.split()
        pids += [
            pid for pid in map(int, found)
            if _name(pid) == name and (name == "redis-server" or _name(_parent(pid)) != "postgres")
        ]  # fmt: skip
    return pids


def group_of(pid: int) -> str:
    """The process's CPU cgroup, as a path under the hierarchy's root: v1's cpu controller's
    if the machine has one, else v2's."""
    found = {}
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        found.update(dict.fromkeys(controllers.split(","), path))
    return found["cpu"] if CGROUP_V1_CPU.is_dir() and "cpu" in found else found.get("", "/")


def _parent(pid: int) -> int:
    """The process's parent; 0 once it is gone (a backend or a test's private server may end
    between ``pgrep`` and the read)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


def _name(pid: int) -> str:
    """The process's name; "" once it is gone."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


class Quota:
    """A CPU cgroup holding at most ``cores`` cores of CPU time (v2's cpu.max or v1's CFS quota)."""

    def __init__(self, cores: float, period_us: int, name: str = GROUP_NAME) -> None:
        quota = max(1000, round(cores * period_us))
        self._was: dict[int, str] = {}  # pid -> its group before it entered this one
        if (CGROUP_V2 / "cgroup.controllers").exists():
            self.root = CGROUP_V2
            self.group = CGROUP_V2 / name
            self.group.mkdir(exist_ok=True)
            (self.group / "cpu.max").write_text(f"{quota} {period_us}")
        elif CGROUP_V1_CPU.is_dir():
            self.root = CGROUP_V1_CPU
            self.group = CGROUP_V1_CPU / name
            self.group.mkdir(exist_ok=True)
            (self.group / "cpu.cfs_period_us").write_text(str(period_us))
            (self.group / "cpu.cfs_quota_us").write_text(str(quota))
        else:
            raise SystemExit("no CPU cgroup here (neither cgroup v2 nor v1's cpu controller)")

    def enter(self, pid: int) -> None:
        self._was[pid] = group_of(pid)
        (self.group / "cgroup.procs").write_text(str(pid))

    def leave(self, pid: int) -> None:
        """Back to the group it was in before ``enter`` (one never entered stays where it is)."""
        if pid not in self._was:
            return
        was = self.root / self._was.pop(pid).lstrip("/")
        with contextlib.suppress(OSError):  # gone meanwhile
            (was / "cgroup.procs").write_text(str(pid))

    def throttled_seconds(self) -> float:
        """How long the group was held back by its quota (cpu.stat)."""
        stats = dict(line.split() for line in (self.group / "cpu.stat").read_text().splitlines())
        if "throttled_usec" in stats:
            return int(stats["throttled_usec"]) / 1e6
        return int(stats.get("throttled_time", 0)) / 1e9

    def remove(self) -> None:
        with contextlib.suppress(OSError):  # a process still in it (not this run's): left for the next to reuse
            self.group.rmdir()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.slow_machine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--cores", type=float, required=True, help="cores of CPU time the run shares")
    parser.add_argument("--period-ms", type=float, default=10, help="the quota's period (default 10 ms)")
    parser.add_argument("--group", default=GROUP_NAME, help=f"the CPU cgroup's name (default {GROUP_NAME})")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command to run")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")
    if os.geteuid() != 0:
        raise SystemExit("a CPU cgroup needs root")
    quota = Quota(args.cores, round(args.period_ms * 1000), name=args.group)
    moved = [os.getpid(), *_servers()]
    try:
        for pid in moved:
            quota.enter(pid)
        print(f"slow machine: {args.cores} cores of CPU time for {' '.join(command)}", flush=True)
        child = subprocess.Popen(command)
        # Stopped, it stops the command first and still moves the servers back (``finally``).
        signal.signal(signal.SIGTERM, lambda signum, _frame: child.send_signal(signum))
        returncode = child.wait()
        print(f"slow machine: held back {quota.throttled_seconds():.1f} s by the quota", flush=True)
        return returncode
    finally:
        for pid in moved:
            quota.leave(pid)
        quota.remove()


if __name__ == "__main__":
    sys.exit(main())
