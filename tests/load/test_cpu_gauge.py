"""The load benchmark's gauge of a run's CPU against the machine's speed (``bench.load.cpu``)."""

from bench.load.cpu import per_action, server_over_bots


def test_the_server_over_the_bots_holds_while_the_machine_speed_moves_both():
    slow = per_action({"web": 1200.0, "postgres": 300.0, "bots": 300.0}, actions=100)
    fast = per_action({"web": 800.0, "postgres": 200.0, "bots": 200.0}, actions=100)
    assert (slow["server"], fast["server"]) == (15.0, 10.0)
    assert server_over_bots(slow) == server_over_bots(fast) == 5.0


def test_no_bots_no_actions_no_gauge():
    assert server_over_bots(per_action({"web": 10.0}, actions=10)) is None
    assert server_over_bots(per_action({"web": 10.0, "bots": 5.0}, actions=0)) is None
