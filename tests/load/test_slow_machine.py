"""``python -m bench.slow_machine`` runs a benchmark on a slower machine than this one: what it
puts in its CPU group gets at most the cores of CPU time asked for, whatever the machine has
free (a busy loop given a quarter of a core runs about a quarter of the time)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.slow_machine import CGROUP_V1_CPU, CGROUP_V2, Quota, _name, _parent, _servers, group_of

from ..support.processes import ROOT

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not ((CGROUP_V2 / "cgroup.controllers").exists() or CGROUP_V1_CPU.is_dir()),
    reason="a CPU cgroup needs root and a cgroup file system",
)

BUSY = "import time\nend = time.monotonic() + 1.5\nwhile time.monotonic() < end:\n    pass\n"


def test_a_quota_caps_what_is_in_its_group():
    quota = Quota(0.25, 10_000, name=f"omaha-slow-machine-test-{os.getpid()}")
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read(1)\n" + BUSY], stdin=subprocess.PIPE)
    try:
        quota.enter(child.pid)
        started = time.monotonic()
        child.stdin.write(b"x")
        child.stdin.close()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - started
    finally:
        quota.leave(child.pid)  # gone already: nothing to move
        quota.remove()
    cpu = usage.ru_utime + usage.ru_stime
    assert child.returncode == 0
    assert cpu / wall < 0.5, (cpu, wall)  # about 0.25; unheld, a busy loop runs nearly the whole time
    assert not quota.group.exists()


def test_the_servers_moved_are_the_postmasters_not_their_backends():
    names = [_name(pid) for pid in _servers()]
    assert "postgres" in names and "redis-server" in names  # both run on every machine of the room's
    for pid in _servers():
        assert _name(pid) == "redis-server" or _name(_parent(pid)) != "postgres"


def test_a_process_gone_meanwhile_has_no_name_and_no_parent():
    ended = subprocess.Popen(["true"])
    ended.wait()  # reaped: its pid is free, as a backend's or a private server's that ended between pgrep and the read
    assert (_name(ended.pid), _parent(ended.pid)) == ("", 0)


def _child(parent: int, name: str) -> int:
    for _ in range(100):
        found = subprocess.run(["pgrep", "-P", str(parent), "-x", name], capture_output=True, text=True).stdout.split()
        if found:
            return int(found[0])
        time.sleep(0.05)
    raise AssertionError(f"no {name} started by {parent}")


def test_stopped_it_stops_its_command_and_moves_the_servers_back():
    name = f"omaha-slow-machine-stop-{os.getpid()}"
    servers = {pid: group_of(pid) for pid in _servers()}
    run = subprocess.Popen(
        [sys.executable, "-m", "bench.slow_machine", "--cores", "2", "--group", name, "--", "sleep", "60"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert run.stdout.readline().startswith("slow machine: 2.0 cores")
        assert all(group_of(pid).endswith(name) for pid in servers)  # in the quota's group meanwhile
        sleeping = _child(run.pid, "sleep")
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=10) != 0
    finally:
        if run.poll() is None:
            run.kill()
    assert not Path(f"/proc/{sleeping}").exists() or _name(sleeping) != "sleep"  # the command stopped first
    assert {pid: group_of(pid) for pid in servers} == servers  # the servers back where they were
    assert not (CGROUP_V2 / name).exists() and not (CGROUP_V1_CPU / name).exists()
