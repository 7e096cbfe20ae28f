"""A cash table's next hand is dealt by the server process that plays the table, the moment
its pause ends, without the clock (``tables.realtime.owner_deals``); a table no seated player's
screen shows here is left to the clock."""

import asyncio

import pytest
from asgiref.sync import async_to_sync

from tables.models import Hand
from tables.realtime import owner_deals

from ..support.sockets import db, table_viewer
from ..support.tables import fold_to_the_end, start_hand

pytestmark = pytest.mark.django_db(transaction=True)

PAUSE = 1.0  # long enough that a loaded machine's commit and screens do not use it up


def _hands(table) -> list[tuple[int, str]]:
    return list(Hand.objects.filter(table=table).order_by("number").values_list("number", "state"))


async def _hands_after(table, seconds: float) -> list[tuple[int, str]]:
    deadline = asyncio.get_running_loop().time() + seconds
    while (hands := await db(_hands, table))[-1][1] != Hand.State.RUNNING:
        if asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.05)
    return hands


def test_the_next_hand_is_dealt_here_when_its_pause_ends(heads_up, channel_layer, settings):
    settings.HAND_PAUSE_SECONDS = PAUSE
    table, alice, bob = heads_up
    start_hand(table)

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()  # a seated player's screen: the table plays here
        try:
            started = asyncio.get_running_loop().time()
            await db(fold_to_the_end, table, {1: alice, 2: bob})
            assert table.pk in owner_deals.pending()
            assert await db(_hands, table) == [(1, Hand.State.COMPLETE)]  # not before its pause ends
            hands = await _hands_after(table, 5)
            assert hands == [(1, Hand.State.COMPLETE), (2, Hand.State.RUNNING)]  # no clock ran
            assert asyncio.get_running_loop().time() - started >= PAUSE
            await alice_tab.until('data-hand="2"', timeout=5)  # its screens went to the sockets here
        finally:
            await alice_tab.close()

    async_to_sync(scenario)()


def test_a_table_not_played_here_is_left_to_the_clock(heads_up, channel_layer, settings):
    settings.HAND_PAUSE_SECONDS = PAUSE
    table, alice, bob = heads_up
    start_hand(table)

    async def scenario():
        spectator = await table_viewer(table).connect()  # a watcher's screen: the table plays elsewhere
        try:
            await db(fold_to_the_end, table, {1: alice, 2: bob})
            assert table.pk not in owner_deals.pending()
            assert await _hands_after(table, PAUSE + 0.6) == [(1, Hand.State.COMPLETE)]
        finally:
            await spectator.close()

    async_to_sync(scenario)()
