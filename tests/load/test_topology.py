"""The README's production topology on network namespaces (``bench.topology``): nginx hashing
to two hosts of two daphnes each, PostgreSQL and Redis on a host of their own. Every daphne is
ready behind the proxy, /metrics stays off the proxy, and with every process of one web host
killed -9 the proxy still serves from the other; ``down`` leaves nothing behind."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from bench import topology

from ..support.processes import ROOT

pytestmark = [
    pytest.mark.load,
    pytest.mark.skipif(
        os.geteuid() != 0 or not shutil.which("nginx") or not shutil.which("redis-server"),
        reason="needs root (ip netns), nginx and redis-server",
    ),
]


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def _run(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "bench.topology", *args], cwd=ROOT, check=True,
                          capture_output=True, text=True, timeout=240).stdout  # fmt: skip


def test_two_web_hosts_behind_the_proxy_survive_one_host_killed():
    proxy = f"http://{topology.HOSTS['omaha-proxy']}:{topology.PROXY_PORT}"
    try:
        _run("up")
        assert _status(f"{proxy}/readyz") == 200
        assert _status(f"{proxy}/metrics") == 404  # scraped on each daphne, never through the proxy
        assert _status(f"http://{topology.HOSTS['omaha-web2']}:8000/metrics") == 200  # the monitoring network
        _run("kill-host", "--host", "omaha-web2")
        assert all(_status(f"{proxy}/readyz") == 200 for _ in range(8))
        assert _status(f"{proxy}/") == 200  # the lobby, from web1
    finally:
        _run("down")
    assert not any(ns.startswith("omaha-") for ns in subprocess.run(
        ["ip", "netns", "list"], capture_output=True, text=True).stdout.split())  # fmt: skip
    assert not topology.STATE.exists()
