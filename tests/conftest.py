"""Fixtures shared by the Django-side tests (the engine tests need none of these)."""

import itertools

import pytest

_usernames = itertools.count(1)


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

    cache.clear()
    return


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
