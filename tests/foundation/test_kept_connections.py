"""A script run on every frame keeps its thread's connection, and recovers from what a Redis
restart does to it: a dead connection, its scripts gone."""

import threading

import pytest
from django.core.cache import caches
from redis.exceptions import ConnectionError as RedisConnectionError

from config.kept_connections import KeptScript

COUNT = "return redis.call('INCRBY', KEYS[1], ARGV[1])"


@pytest.fixture
def client(needs_redis):
    client = caches["default"]._cache.get_client(write=True)
    client.delete("kept-script-count")
    yield client
    client.delete("kept-script-count")


def _kept_connection_id(script: KeptScript) -> int:
    (connection,) = script._kept().values()
    connection.send_command("CLIENT", "ID")
    return connection.read_response()


def test_a_thread_runs_its_scripts_on_one_connection_it_keeps(client):
    script = KeptScript(COUNT)
    before = client.connection_pool._created_connections
    assert [script.run(client, ["kept-script-count"], [2]) for _ in range(5)] == [2, 4, 6, 8, 10]
    assert client.connection_pool._created_connections - before <= 1  # one, kept, not one per call
    others = []
    thread = threading.Thread(target=lambda: others.append(script.run(client, ["kept-script-count"], [1])))
    thread.start()
    thread.join()
    assert others == [11]  # another thread's call: on a connection of its own
    assert script.run(client, ["kept-script-count"], [1]) == 12


def test_a_dropped_connection_fails_one_call_and_the_next_takes_a_new_one(client):
    script = KeptScript(COUNT)
    script.run(client, ["kept-script-count"], [1])
    client.client_kill_filter(_id=_kept_connection_id(script))  # what a Redis restart does to it
    with pytest.raises(RedisConnectionError):
        script.run(client, ["kept-script-count"], [1])
    assert script.run(client, ["kept-script-count"], [1]) == 2  # the failed call changed nothing


def test_scripts_flushed_are_loaded_again(client):
    script = KeptScript(COUNT)
    assert script.run(client, ["kept-script-count"], [1]) == 1
    client.script_flush()  # a restarted Redis holds no script
    assert script.run(client, ["kept-script-count"], [1]) == 2
