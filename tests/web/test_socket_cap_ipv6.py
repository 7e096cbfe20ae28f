"""The per-address socket cap counts an IPv6 client by its /64, as the HTTP throttles do
(issue 25, item 12): a client picking new addresses in its own network gains nothing."""

import pytest
from asgiref.sync import async_to_sync

from tables.realtime.socket_guard import client_address

from ..support.sockets import table_viewer
from .test_trust_sockets import POLICY_VIOLATION

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("client", "counted_as"),
    [
        (("2001:db8:1:2:aaaa::1", 1), "2001:db8:1:2::/64"),
        (("2001:DB8:1:2:ffff:ffff:ffff:ffff", 1), "2001:db8:1:2::/64"),
        (("10.0.0.9", 1), "10.0.0.9"),
        (("not an address", 1), "0.0.0.0"),
        (None, "0.0.0.0"),
    ],
)
def test_sockets_are_counted_per_ipv4_address_and_per_ipv6_64(client, counted_as):
    assert client_address({"client": client}) == counted_as


def test_too_many_sockets_from_one_ipv6_64_are_refused(heads_up, settings):
    settings.WEBSOCKET_MAX_PER_IP = 3
    table, _alice, _bob = heads_up

    async def scenario():
        watchers = [await table_viewer(table, client=(f"2001:db8:1:2::{k + 1:x}", 4000)).connect() for k in range(3)]
        extra = table_viewer(table, client=("2001:db8:1:2:ffff::9", 5000))
        assert await extra.communicator.connect()
        assert await extra.closed_with() == POLICY_VIOLATION
        elsewhere = await table_viewer(table, client=("2001:db8:1:3::1", 5000)).connect()  # another /64
        for tab in (*watchers, elsewhere):
            await tab.close()

    async_to_sync(scenario)()
