"""Behind the proxy: the Procfile's daphne reads the client from X-Forwarded-For, and the
per-address limits count that client, not the proxy (config/client_ip.py)."""

import contextlib
import http.client
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.parse

import pytest
from daphne.cli import CommandLineInterface
from django.conf import settings

from config.client_ip import UNKNOWN, client_ip, client_ip_from_scope

from ..support.processes import ROOT, free_port, process_env, shared_database_url


def _procfile_web_args() -> list[str]:
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    args = shlex.split(line.removeprefix("web:"))
    assert args[0] == "daphne"
    return args[1:]


def test_the_procfile_daphne_takes_the_client_and_scheme_from_the_proxy_headers():
    cli = CommandLineInterface()
    args = cli.parser.parse_args([arg.replace("${PORT:-8000}", "8000") for arg in _procfile_web_args()])
    assert args.proxy_headers
    assert cli._get_forwarded_host(args) == "X-Forwarded-For"


def test_the_procfile_daphne_queues_a_connect_storm_in_the_kernel():
    """A room's sockets all open at once after a restart or at a tournament's start: Twisted
    listens with a queue of 50 by default, and the connects past it are dropped and tried
    again by the clients' TCP a second or three later, past a page's patience; a room of 800
    tables on two processes opens 2,400 sockets on each at once."""
    args = CommandLineInterface().parser.parse_args(
        [arg.replace("${PORT:-8000}", "8000") for arg in _procfile_web_args()]
    )
    (endpoint,) = args.socket_strings
    options = dict(part.split("=", 1) for part in endpoint.split(":")[1:])
    assert endpoint.startswith("tcp:") and options["port"] == "8000" and int(options["backlog"]) >= 4096


def test_the_procfile_daphne_waits_for_a_slow_answer_to_a_handshake(tmp_path):
    """A room starting past its capacity on a slow machine answers its first sockets in 5 to 8 s,
    behind the storm's refusals (``bench/load/README.md``): daphne's own limit, 5 s, dropped
    them, and with them the tables they had taken. The Procfile's daphne waits, and the bench's
    daphnes wait as long."""
    import asyncio

    from bench.load.stack import HANDSHAKE_SECONDS
    from bench.load.ws import WebSocket

    from ..support.slow_answer_asgi import ANSWER_AFTER_SECONDS

    args = [arg.replace("${PORT:-8000}", "8000") for arg in _procfile_web_args()]
    parsed = CommandLineInterface().parser.parse_args(args)
    assert parsed.websocket_connect_timeout == HANDSHAKE_SECONDS > ANSWER_AFTER_SECONDS

    async def answered(port: int) -> str:
        socket = await WebSocket.connect("127.0.0.1", port, "/ws/slow/", timeout=5, answer_timeout=20)
        try:
            return await asyncio.wait_for(socket.recv_text(), 20)
        finally:
            socket.abort()

    slow = "tests.support.slow_answer_asgi:application"
    with _procfile_daphne(process_env(), tmp_path / "daphne.log", slow) as port:
        assert asyncio.run(answered(port)) == "answered"


def test_the_client_address_is_what_daphne_put_in_remote_addr_and_the_scope():
    class Request:
        META = {"REMOTE_ADDR": "203.0.113.9", "HTTP_X_FORWARDED_FOR": "192.0.2.66"}

    assert client_ip(Request()) == "203.0.113.9"  # a forwarding header is never read here
    assert (
        client_ip_from_scope({"client": ["203.0.113.9", 51234], "headers": [(b"x-forwarded-for", b"192.0.2.66")]})
        == "203.0.113.9"
    )
    assert client_ip_from_scope({"client": None}) == UNKNOWN  # a Unix socket: one shared bucket


@pytest.mark.parametrize("made_up", ["", "unknown", "1.2.3.4.5", "<script>", "203.0.113.9, 10.0.0.1"])
def test_an_address_that_is_no_ip_address_falls_in_one_shared_bucket(made_up):
    class Request:
        META = {"REMOTE_ADDR": made_up}

    assert client_ip(Request()) == UNKNOWN
    assert client_ip_from_scope({"client": [made_up, 0]}) == UNKNOWN


def test_ipv6_addresses_are_written_one_way():
    class Request:
        META = {"REMOTE_ADDR": "2001:DB8:0:0::1"}

    assert client_ip(Request()) == "2001:db8::1"


def test_axes_and_the_limits_read_the_address_from_that_one_place():
    assert settings.AXES_CLIENT_IP_CALLABLE == "config.client_ip.client_ip"
    assert settings.RATELIMIT_IP_META_KEY == "config.client_ip.client_ip"


class _Browser:
    """Just enough of a browser for a form: cookies, the CSRF token, no redirects followed."""

    def __init__(self, port: int, forwarded_for: str):
        self.port, self.forwarded_for, self.cookies = port, forwarded_for, {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {
            "X-Forwarded-For": self.forwarded_for,
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        status, text = response.status, response.read().decode()
        conn.close()
        return status, text

    def sign_up(self, username: str) -> int:
        status, page = self.request("GET", "/accounts/signup/")
        if status != 200:
            return status
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        password = "a-Strong-pass-4821"
        form = {"csrfmiddlewaretoken": token, "username": username, "password1": password, "password2": password}
        return self.request("POST", "/accounts/signup/", form)[0]


@pytest.fixture
def procfile_web(needs_postgresql, needs_redis, tmp_path):
    """The Procfile's web process on loopback, on the test database and cache, with SIGNUP_RATE=1/h."""
    cache_url = settings.CACHES["default"]["LOCATION"]
    env = process_env(
        DEBUG="1", EMBEDDED_CLOCK="0", SIGNUP_RATE="1/h", LOG_LEVEL="WARNING", DATABASE_URL=shared_database_url(),
        REDIS_URL=settings.REDIS_URL, CACHE_URL=cache_url,
    )  # fmt: skip
    with _procfile_daphne(env, tmp_path / "daphne.log") as port:
        yield port


@contextlib.contextmanager
def _procfile_daphne(env: dict[str, str], log_path, application: str | None = None):
    """The Procfile's daphne on a free loopback port (serving ``application`` in the Procfile's
    place when given), ready: yields its port, stopped after."""
    port = free_port()
    args = [arg.replace("${PORT:-8000}", str(port)).replace("0.0.0.0", "127.0.0.1") for arg in _procfile_web_args()]
    if application is not None:
        args[-1] = application
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", *args], cwd=ROOT, env=env, stdout=log_path.open("w"),
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=2).request("HEAD", "/")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.2)
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)


@pytest.mark.django_db(transaction=True)
def test_behind_the_proxy_each_forwarded_client_has_its_own_signup_limit(procfile_web):
    first = _Browser(procfile_web, forwarded_for="203.0.113.10")
    assert first.sign_up("proxied1") == 302
    assert _Browser(procfile_web, forwarded_for="203.0.113.10").sign_up("proxied2") == 429
    # Another client behind the same proxy (same peer address: 127.0.0.1) is not affected.
    assert _Browser(procfile_web, forwarded_for="198.51.100.11").sign_up("proxied3") == 302


def test_the_procfile_daphne_listens_with_the_queue_it_asks_for(procfile_web):
    """Read off the kernel: a listening socket's Send-Q is the length of its queue."""
    listening = subprocess.run(
        ["ss", "-Hltn", f"sport = :{procfile_web}"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert listening[0] == "LISTEN" and int(listening[2]) >= 1024
