"""Fixtures shared by the Django-side tests (the engine tests need none of these). Helpers
that are not fixtures live in tests/support."""

import itertools

import pytest

from tests.support.backends import NEEDS_POSTGRESQL, NEEDS_REDIS, on_postgresql, on_redis

_usernames = itertools.count(1)


def pytest_collection_modifyitems(config, items):
    """The slowest kinds run first: the adversaries (marked ``long``) and the load harness, then
    the browser modules. scripts/test hands whole modules to its xdist workers in this order
    (--no-loadscope-reorder), so no long module starts last, with the other workers idle until
    it ends."""

    def kind(item) -> int:
        if item.get_closest_marker("long") or item.get_closest_marker("load"):
            return 0
        return 1 if item.get_closest_marker("browser") else 2

    items.sort(key=kind)  # stable: within a kind, the order collected


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, django_db_blocker):
    """pytest-django's own (the worker's suffix), then the test database cloned from a template
    migrated once for this code (tests/support/template_database.py)."""
    from tests.support.template_database import use_template

    with django_db_blocker.unblock():
        use_template()


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """Hash test players' passwords with a cheap hasher (the room's own is slow on purpose).
    Set for the whole run, before any live server is forked, so it can check them too."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def empty_cache():
    """Every test starts with no rate-limit or socket counters left by another."""
    from django.core.cache import cache

    from tables.realtime import admission, refusals
    from tables.selectors import allowance

    cache.clear()
    allowance._policy = None  # the process's few seconds' memo of what the cache held
    admission._written.clear()  # what this process wrote to the cache it has just cleared
    refusals.shed_waits = refusals.ShedWaits()
    return


@pytest.fixture(autouse=True)
def no_snapshot_threads_left():
    """Sockets read their snapshots and their users, and apply their frames, on threads of their
    own, each with a database connection: stopped after each test, so none outlives the test
    database (or a transaction's flush)."""
    yield
    from accounts import socket_users
    from tables.realtime import action_threads, snapshot_threads

    snapshot_threads.stop()
    action_threads.stop()
    socket_users.lookups.stop()


@pytest.fixture(autouse=True)
def no_language_left_active():
    """A request as a player with a language of their own activates it on the test's thread
    (ProfileLanguageMiddleware, like Django's LocaleMiddleware, does not switch back after the
    response): every test starts in the room's language, whichever test ran before it."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def no_pause_between_hands(settings):
    """The next hand is due as soon as one ends: tests deal hands back to back."""
    settings.HAND_PAUSE_SECONDS = 0


@pytest.fixture(scope="session")
def needs_postgresql():
    """Skip the test on the embedded SQLite: it needs real row locks, or a process of its own
    sharing the test database."""
    if not on_postgresql():
        pytest.skip(NEEDS_POSTGRESQL)


@pytest.fixture(scope="session")
def needs_redis():
    """Skip the test without Redis: it needs channels-redis (a process of its own reaching the
    test's sockets, or the other way round), Celery on Redis, or a cache shared with a server."""
    if not on_redis():
        pytest.skip(NEEDS_REDIS)


@pytest.fixture
def make_player(db):
    """Register a player the way sign-up does: account plus the play-money grant."""
    from accounts.services import register_player

    def make(username: str | None = None, password: str = "a-Strong-pass-4821"):
        return register_player(username=username or f"player{next(_usernames)}", password=password)

    return make


@pytest.fixture
def make_table(db):
    from tables.models import Table

    def make(**overrides):
        spec = {
            "name": f"Table {next(_usernames)}",
            "variant": Table.Variant.POT_LIMIT,
            "stake_small": 1,
            "stake_big": 2,
            "seat_count": 6,
            "min_buy_in": 40,
            "max_buy_in": 200,
        }
        spec.update(overrides)
        table = Table(**spec)
        table.full_clean()
        table.save()
        return table

    return make


@pytest.fixture
def heads_up(make_player, make_table):
    """A Pot Limit 1/2 table "Heads-up PL": alice in seat 1 (sat first: the button), bob in
    seat 2, 200 chips each; no hand yet."""
    from tests.support.tables import sit

    table = make_table(name="Heads-up PL")
    alice, bob = make_player("alice"), make_player("bob")
    sit(table, alice, 1)
    sit(table, bob, 2)
    return table, alice, bob


@pytest.fixture
def assert_audit_clean():
    """Call after any sequence of chip movements: the ledger must balance."""
    from cashier.audit import run_audit

    def check():
        report = run_audit()
        assert report.ok, report.problems
        return report

    return check


@pytest.fixture
def assert_ledger_clean():
    """For cashier-only tests that move chips to a table escrow without seating anyone:
    the ledger must balance (the tables' own check does not apply)."""
    from cashier.audit import ledger_problems

    def check():
        problems, _, issued = ledger_problems()
        assert not problems, problems
        return issued

    return check
