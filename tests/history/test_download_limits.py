"""The whole-history downloads: one at a time per player, at most 10 an hour (issue 25, item 11)."""

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.django_db]

WHOLE_HISTORY = ("history:export_history", "history:export_history_phh")


@pytest.fixture
def player_client(client, make_player):
    client.force_login(make_player())
    return client


@pytest.mark.parametrize("name", WHOLE_HISTORY)
def test_one_whole_history_download_at_a_time(player_client, client, make_player, name):
    under_way = player_client.get(reverse(name))
    assert under_way.status_code == 200 and under_way.streaming
    # A slow reader: the stream is not read to its end yet.
    for other in WHOLE_HISTORY:
        refused = player_client.get(reverse(other))
        assert refused.status_code == 429
        assert "One whole-history download at a time" in refused.content.decode()
    b"".join(under_way.streaming_content)  # it ends
    assert player_client.get(reverse(name)).status_code == 200


def test_at_most_10_whole_history_downloads_an_hour(player_client, settings, make_player, client):
    assert settings.HISTORY_DOWNLOADS_PER_HOUR == 10
    for number in range(10):
        response = player_client.get(reverse(WHOLE_HISTORY[number % 2]))
        assert response.status_code == 200
        b"".join(response.streaming_content)
    refused = player_client.get(reverse(WHOLE_HISTORY[0]))
    assert refused.status_code == 429 and "At most 10 whole-history downloads an hour" in refused.content.decode()
    client.force_login(make_player())  # another player is not held back
    assert client.get(reverse(WHOLE_HISTORY[0])).status_code == 200
