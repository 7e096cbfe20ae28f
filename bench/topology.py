"""The production topology of the README on one machine, with network namespaces as hosts.

::

    harness (root namespace, 10.77.0.1)
        │  omaha-br0 (bridge, 10.77.0.0/24)
        ├── omaha-proxy 10.77.0.2   nginx :8080, a table's sockets hashed to one daphne
        ├── omaha-web1  10.77.0.11  daphne :8000 :8001, celery worker, celery beat
        ├── omaha-web2  10.77.0.12  daphne :8000 :8001
        └── omaha-db    10.77.0.10  PostgreSQL :5432, Redis :6379

``python -m bench.topology up`` builds it from Debian's packages (iproute2, nginx-light,
postgresql, redis-server), migrates the database and waits until the proxy's ``/readyz``
answers from every daphne; ``status`` prints each host's readiness; ``down`` stops what
``up`` started (by PID, recorded in the state file) and deletes the namespaces, the veths
and the bridge it made, and nothing else. Root only (``ip netns``).

``up --load`` sets the load harness's knobs in every process (``LOAD_ENV``: every bot
comes from the harness's one address, so the per-address socket cap is lifted; short
pauses between hands; a large sign-up grant); ``python -m bench.load topology`` brings it
up that way, plays through the proxy, kills one web host and takes it down again.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bench.load.stack import HANDSHAKE_SECONDS, LISTEN_BACKLOG  # each daphne's, as the Procfile sets them

ROOT = Path(__file__).resolve().parents[1]
STATE = Path("/tmp/omaha-topology")
BRIDGE, NET, HARNESS = "omaha-br0", "10.77.0", "10.77.0.1"
HOSTS = {"omaha-proxy": f"{NET}.2", "omaha-db": f"{NET}.10", "omaha-web1": f"{NET}.11", "omaha-web2": f"{NET}.12"}
WEB_PORTS = (8000, 8001)
PROXY_PORT = 8080
PG_BIN = Path("/usr/lib/postgresql/15/bin")
SECRET_KEY = "bench-topology-secret-key-not-for-production-4f1e2d3c5b6a"


def sh(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(args, check=check, capture_output=True, text=True)


def in_ns(ns: str, *args: str) -> list[str]:
    return ["ip", "netns", "exec", ns, *args]


# What ``up --load`` adds (the values of bench.load.stack.bench_env): the bots all connect
# from the harness's address, as the X-Forwarded-For the proxy sets says.
LOAD_ENV = {
    "WEBSOCKET_MAX_PER_IP": "1000000",
    "WEBSOCKET_FRAME_BURST": "1000000",
    "HAND_PAUSE_SECONDS": "0.5",
    "CHIPS_SIGNUP_GRANT": "1000000",
    "CONN_MAX_AGE": "60",
}


def room_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of every process of the room (and of a harness that uses its database)."""
    db = HOSTS["omaha-db"]
    return {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL")},
        "DATABASE_URL": f"postgres://postgres@{db}:5432/poker",
        "REDIS_URL": f"redis://{db}:6379/0",
        "CACHE_URL": f"redis://{db}:6379/0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": SECRET_KEY,
        "SECURE_SSL_REDIRECT": "0",
        "ALLOWED_HOSTS": f"{HOSTS['omaha-proxy']},{HOSTS['omaha-web1']},{HOSTS['omaha-web2']},localhost",
        "CSRF_TRUSTED_ORIGINS": f"http://{HOSTS['omaha-proxy']}:{PROXY_PORT}",
        "METRICS_ALLOWED_NETWORKS": f"{NET}.0/24",
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
        "STATIC_ROOT": str(STATE / "static"),
        **(extra or {}),
    }


class Topology:
    def __init__(self) -> None:
        self.state_path = STATE / "state.json"
        self.state: dict = json.loads(self.state_path.read_text()) if self.state_path.exists() else {}

    def save(self) -> None:
        STATE.mkdir(parents=True, exist_ok=True)
        self.state_path.write_text(json.dumps(self.state, indent=2))

    def start(self, name: str, command: list[str], env: dict | None = None) -> None:
        log = (STATE / f"{name}.log").open("ab")
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)  # fmt: skip
        self.state.setdefault("processes", {})[name] = process.pid
        self.save()

    # --- up -------------------------------------------------------------------------------

    def env(self) -> dict[str, str]:
        return room_env(self.state.get("env"))

    def up(self, extra_env: dict[str, str] | None = None) -> None:
        if self.state:
            raise SystemExit(f"already up (see {self.state_path}); run down first")
        STATE.mkdir(parents=True, exist_ok=True)
        self.state = {"namespaces": [], "links": [], "processes": {}, "env": dict(extra_env or {})}
        sh("ip", "link", "add", BRIDGE, "type", "bridge")
        self.state["links"].append(BRIDGE)
        self.save()
        sh("ip", "addr", "add", f"{HARNESS}/24", "dev", BRIDGE)
        sh("ip", "link", "set", BRIDGE, "up")
        for i, (ns, address) in enumerate(HOSTS.items()):
            sh("ip", "netns", "add", ns)
            self.state["namespaces"].append(ns)
            outside, inside = f"om{i}-br", f"om{i}-host"
            sh("ip", "link", "add", outside, "type", "veth", "peer", "name", inside)
            self.state["links"].append(outside)
            self.save()
            sh("ip", "link", "set", inside, "netns", ns)
            sh("ip", "link", "set", outside, "master", BRIDGE)
            sh("ip", "link", "set", outside, "up")
            sh(*in_ns(ns, "ip", "addr", "add", f"{address}/24", "dev", inside))
            sh(*in_ns(ns, "ip", "link", "set", inside, "up"))
            sh(*in_ns(ns, "ip", "link", "set", "lo", "up"))
        self.start_database_host()
        self.migrate()
        env = self.env()
        for host in ("omaha-web1", "omaha-web2"):
            for port in WEB_PORTS:
                self.start(f"{host}-daphne-{port}", in_ns(host, sys.executable, "-m", "daphne", "--proxy-headers",
                           "--websocket_connect_timeout", str(HANDSHAKE_SECONDS),
                           "-e", f"tcp:port={port}:interface={HOSTS[host]}:backlog={LISTEN_BACKLOG}",
                           "config.asgi:application"), env)  # fmt: skip
        self.start("omaha-web1-worker", in_ns("omaha-web1", sys.executable, "-m", "celery", "-A", "config", "worker",
                   "--loglevel=WARNING", "--concurrency=2"), env)  # fmt: skip
        self.start("omaha-web1-beat", in_ns("omaha-web1", sys.executable, "-m", "celery", "-A", "config", "beat",
                   "--loglevel=WARNING", "--schedule", str(STATE / "beat-schedule")), env)  # fmt: skip
        self.start_proxy()
        self.wait_ready()

    def start_database_host(self) -> None:
        data = STATE / "pgdata"
        owner = pwd.getpwnam("postgres")
        os.chown(STATE, owner.pw_uid, owner.pw_gid)
        subprocess.run([str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync"],
                       check=True, capture_output=True, user=owner.pw_uid, group=owner.pw_gid)  # fmt: skip
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {NET}.0/24 trust\n")
        # ip netns exec needs root; runuser then drops to postgres (which refuses to run as root).
        self.start("omaha-db-postgres", in_ns("omaha-db", "runuser", "-u", "postgres", "--", str(PG_BIN / "postgres"),
                   "-D", str(data), "-k", str(STATE), "-c", f"listen_addresses={HOSTS['omaha-db']}",
                   "-c", "max_connections=300", "-c", "fsync=off"))  # fmt: skip
        self.start("omaha-db-redis", in_ns("omaha-db", "redis-server", "--bind", HOSTS["omaha-db"], "--port", "6379",
                   "--save", "", "--appendonly", "no", "--protected-mode", "no", "--dir", str(STATE)))  # fmt: skip
        import psycopg

        deadline = time.monotonic() + 60
        while True:
            try:
                with psycopg.connect(f"host={HOSTS['omaha-db']} user=postgres dbname=postgres", autocommit=True,
                                     connect_timeout=2) as admin:  # fmt: skip
                    admin.execute("CREATE DATABASE poker")
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)

    def migrate(self) -> None:
        """The Procfile's release step: migrate, collect the static files (DEBUG=0 serves the manifest's)."""
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=self.env(), check=True,
                           capture_output=True)  # fmt: skip

    def start_proxy(self) -> None:
        # max_fails=0: nginx's passive check would split a table's sockets. A peer that failed
        # once takes one new connection per fail_timeout until a request to it *ends* well,
        # which a websocket does not do for hours, so the hash passes the table's other sockets
        # to the next peer. Without it a connect refused by a dead daphne costs a round trip,
        # and proxy_next_upstream takes the next peer on the ring for every socket of the table.
        servers = "\n".join(
            f"        server {HOSTS[host]}:{port} max_fails=0;"
            for host in ("omaha-web1", "omaha-web2")
            for port in WEB_PORTS
        )
        (STATE / "nginx.conf").write_text(f"""
worker_processes 1;
pid {STATE}/nginx.pid;
error_log {STATE}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {STATE}/nginx-body;
    proxy_temp_path {STATE}/nginx-proxy;
    fastcgi_temp_path {STATE}/nginx-fastcgi;
    uwsgi_temp_path {STATE}/nginx-uwsgi;
    scgi_temp_path {STATE}/nginx-scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream daphne {{
        hash $request_uri consistent;  # a table's sockets (/ws/tables/<id>/) to one daphne
{servers}
    }}
    server {{
        listen {HOSTS["omaha-proxy"]}:{PROXY_PORT};
        location = /metrics {{ return 404; }}
        location / {{
            proxy_pass http://daphne;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 3600s;
            proxy_next_upstream error timeout;
        }}
    }}
}}
""")
        self.start("omaha-proxy-nginx", in_ns("omaha-proxy", "nginx", "-c", str(STATE / "nginx.conf"), "-g",
                                              "daemon off;"))  # fmt: skip

    def wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(status == 200 for status in self.readiness().values()):
                return
            time.sleep(0.5)
        raise SystemExit(f"not ready after {timeout}s: {self.readiness()}")

    def readiness(self) -> dict[str, int | str]:
        found: dict[str, int | str] = {}
        targets = {f"{host}:{port}": f"http://{HOSTS[host]}:{port}/readyz"
                   for host in ("omaha-web1", "omaha-web2") for port in WEB_PORTS}  # fmt: skip
        targets["proxy"] = f"http://{HOSTS['omaha-proxy']}:{PROXY_PORT}/readyz"
        for name, url in targets.items():
            try:
                with urllib.request.urlopen(url, timeout=3) as response:
                    found[name] = response.status
            except urllib.error.HTTPError as error:
                found[name] = error.code
            except OSError as error:
                found[name] = type(error).__name__
        return found

    # --- down ---------------------------------------------------------------------------

    def down(self) -> None:
        for _name, pid in reversed(list(self.state.get("processes", {}).items())):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        for pid in self.state.get("processes", {}).values():
            while time.monotonic() < deadline:
                try:
                    os.killpg(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
        for ns in self.state.get("namespaces", []):
            sh("ip", "netns", "del", ns, check=False)
        for link in self.state.get("links", []):
            sh("ip", "link", "del", link, check=False)
        shutil.rmtree(STATE, ignore_errors=True)
        self.state = {}

    def processes(self, host: str | None = None) -> dict[str, int]:
        """{name: pid} of the processes ``up`` started (on ``host``), each leading its process group."""
        found = self.state.get("processes", {})
        return {name: pid for name, pid in found.items() if host is None or name.startswith(f"{host}-")}

    def established(self, host: str) -> int:
        """The TCP connections established to ``host``'s daphne ports now: the proxy's, one per
        socket (it keeps no idle connection to them)."""
        ports = " or ".join(f"sport = :{port}" for port in WEB_PORTS)
        out = sh(*in_ns(host, "ss", "-Htn", "state", "established", f"( {ports} )"), check=False).stdout
        return len(out.splitlines())

    def kill_host(self, host: str) -> list[str]:
        """kill -9 every process of ``host`` (its daphnes, and on web1 the worker and beat)."""
        killed = []
        for name, pid in self.state.get("processes", {}).items():
            if name.startswith(f"{host}-"):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                killed.append(name)
        return killed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.topology", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("command", choices=["up", "status", "down", "kill-host"])
    parser.add_argument("--host", choices=["omaha-web1", "omaha-web2"], help="for kill-host")
    parser.add_argument("--load", action="store_true", help="up: with the load harness's knobs (LOAD_ENV)")
    args = parser.parse_args(argv)
    topology = Topology()
    if args.command == "up":
        try:
            topology.up(LOAD_ENV if args.load else None)
        except BaseException:
            print("up failed; tearing down", file=sys.stderr)
            for log in sorted(STATE.glob("*.log")):
                print(f"--- {log.name}\n{log.read_text(errors='replace')[-1500:]}", file=sys.stderr)
            topology.down()
            raise
        print(json.dumps({"proxy": f"http://{HOSTS['omaha-proxy']}:{PROXY_PORT}/", "ready": topology.readiness()}))
    elif args.command == "status":
        print(json.dumps(topology.readiness(), indent=2))
    elif args.command == "kill-host":
        print(json.dumps(topology.kill_host(args.host or "omaha-web2")))
    else:
        topology.down()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
