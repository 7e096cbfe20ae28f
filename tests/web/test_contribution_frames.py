"""The contribution frame (docs/fair-dealing.md): a seated player's page carries the next hand's
seed commitment and sends one random value for it; only a seated player's counts, once per
hand, and no value is ever sent back down any socket."""

import asyncio
import re
import secrets

import pytest
from asgiref.sync import async_to_sync

from tables import services
from tables.models import DealContribution, Hand, Table

from ..support.sockets import db, table_viewer
from ..support.tables import table_version

pytestmark = pytest.mark.django_db(transaction=True)

FORM = re.compile(r'<form ws-send id="contribution-form"[^>]*data-seed-commitment="([0-9a-f]{64})"')


def commitment_of(table) -> str:
    return Table.objects.get(pk=table.pk).next_seed_commitment


def contributions() -> list[tuple[int, str]]:
    return list(DealContribution.objects.values_list("player_id", "value"))


async def until_stored(count: int, timeout: float = 3) -> list[tuple[int, str]]:
    async with asyncio.timeout(timeout):
        while len(stored := await db(contributions)) < count:
            await asyncio.sleep(0.02)
    return stored


def test_a_seated_players_page_sends_its_value_for_the_published_commitment(heads_up, make_player):
    table, alice, _bob = heads_up
    carol = make_player("carol")  # logged in, watching without a seat

    async def scenario():
        alice_tab = await table_viewer(table, alice).connect()
        watcher = await table_viewer(table, carol).connect()
        spectator = await table_viewer(table).connect()
        published = await db(commitment_of, table)
        assert FORM.search(alice_tab.frames[0]).group(1) == published
        assert not FORM.search(watcher.frames[0]) and not FORM.search(spectator.frames[0])

        value = secrets.token_hex(32)
        await alice_tab.send(action="contribute", seed_commitment=published, value=value)
        assert await until_stored(1) == [(alice.pk, value)]
        await alice_tab.send(action="contribute", seed_commitment=published, value=secrets.token_hex(32))
        await alice_tab.until("already in")
        await watcher.send(action="contribute", seed_commitment=published, value=secrets.token_hex(32))
        await watcher.until("You have no seat at this table.")
        await spectator.send(action="contribute", seed_commitment=published, value=secrets.token_hex(32))
        await spectator.until("Log in to play.")
        await alice_tab.send(action="contribute", seed_commitment=published, value="not hex")
        await alice_tab.until("table-error")
        assert await db(contributions) == [(alice.pk, value)]

        before = await db(table_version, table)
        await db(services.start_hand_if_due, table_id=table.pk)
        for tab in (alice_tab, watcher, spectator):
            await tab.until_version(before + 1)
        hand = await db(Hand.objects.get, table=table)
        assert {"seat": 1, "value": value, "source": "player"} in hand.contributions
        # The next hand's commitment reaches the page; no contribution or seed ever does.
        assert await db(commitment_of, table) in "".join(alice_tab.frames)
        for tab in (alice_tab, watcher, spectator):
            frames = "".join(tab.frames)
            assert value not in frames and hand.server_seed not in frames
            assert all(each["value"] not in frames for each in hand.contributions)
        for tab in (alice_tab, watcher, spectator):
            await tab.close()

    async_to_sync(scenario)()
