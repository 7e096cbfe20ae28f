"""The embedded default's table clock: the same Celery task, run once a second in the server's event loop."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import override_settings

from tables.models import Hand
from tables.realtime import embedded_clock

from ..support.tables import sit

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_embedded_clock_starts_a_due_hand_without_beat(make_player, make_table):
    table = make_table()
    sit(table, make_player(), 1)
    sit(table, make_player(), 2)
    assert not Hand.objects.filter(table=table).exists()

    async def serve_for_a_while():
        embedded_clock.ensure_started()
        embedded_clock.ensure_started()  # idempotent: still one clock
        clock = embedded_clock._clock
        await asyncio.sleep(2.5)
        clock.cancel()
        await asyncio.gather(clock, return_exceptions=True)
        # The clock's database thread keeps a connection: close it there, before teardown.
        await sync_to_async(connections.close_all, thread_sensitive=True)()

    with override_settings(EMBEDDED_CLOCK=True):
        asyncio.run(serve_for_a_while())
    assert Hand.objects.filter(table=table, state=Hand.State.RUNNING).count() == 1


def test_with_redis_the_server_runs_no_clock_of_its_own():
    async def check():
        embedded_clock._clock = None
        embedded_clock.ensure_started()
        return embedded_clock._clock

    with override_settings(EMBEDDED_CLOCK=False):
        assert asyncio.run(check()) is None
