"""The test databases cloned from one migrated template instead of each worker migrating its own.

Each pytest-xdist worker makes its test database (``test_poker_gw0``, ...) by ``CREATE DATABASE
... TEMPLATE``, the Django setting ``TEST["TEMPLATE"]``, from a template that ``manage.py
migrate`` built once: the workers' own ``migrate`` then finds every migration applied. The
template is named by a digest of everything a migrated database depends on (every migration
file, the pinned requirements, the installed apps), so a change to any of them builds a new
one, and a machine that ran the suite before (as CI's has) reuses it. Built under an advisory
lock by the first worker to need it, in a database of its own that is renamed once complete:
a half-built template is never cloned. Templates of other digests are dropped.

On SQLite nothing changes.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys

from .processes import ROOT

LOCK = 7_314_001  # pg_advisory_lock's key for building a template


def digest() -> str:
    from django.conf import settings

    sha = hashlib.sha256()
    files = sorted(ROOT.glob("*/migrations/*.py")) + sorted(ROOT.glob("requirements*.txt"))
    for path in files:
        sha.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    sha.update(repr(settings.INSTALLED_APPS).encode())
    return sha.hexdigest()[:12]


def use_template() -> None:
    """Point the test databases' creation at the template for this code, built if missing."""
    import psycopg
    from django.conf import settings

    database = settings.DATABASES["default"]
    if "postgresql" not in database["ENGINE"]:
        return
    # Named after the test database without the worker's suffix: runs kept apart by
    # TEST_DATABASE_NAME keep their templates apart too.
    test_name = (database.get("TEST") or {}).get("NAME") or f"test_{database['NAME']}"
    name = f"{re.sub(r'_gw[0-9]+$', '', test_name)}_template_{digest()}"
    admin = {"host": database["HOST"], "port": database["PORT"], "user": database["USER"], "dbname": "postgres"}
    if database.get("PASSWORD"):
        admin["password"] = database["PASSWORD"]
    with psycopg.connect(**admin, autocommit=True) as connection:
        connection.execute("SELECT pg_advisory_lock(%s)", [LOCK])
        try:
            present = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if present is None:
                _build(connection, database, name)
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", [LOCK])
    database.setdefault("TEST", {})["TEMPLATE"] = name


def _build(connection, database: dict, name: str) -> None:
    building = f"{name}_building"
    prefix = name.rsplit("_", 1)[0] + "_"
    stale = connection.execute(
        "SELECT datname FROM pg_database WHERE starts_with(datname, %s) AND datname <> %s", [prefix, name]
    ).fetchall()
    for (old,) in stale:  # other code's templates, and a build that died half-way
        connection.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')
    connection.execute(f'CREATE DATABASE "{building}"')
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{building}"
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=300)  # fmt: skip
    connection.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
