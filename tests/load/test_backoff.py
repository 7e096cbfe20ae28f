"""The bots wait before reconnecting as the page does (bench/load/backoff.py, static/js/connection.js)."""

import itertools
import random

from bench.load.backoff import BUSY_CAP_S, Backoffs, Reconnect


def test_busy_refusals_in_a_row_wait_up_to_a_bound_that_doubles_to_its_cap():
    backoffs = Backoffs()
    reconnect = Reconnect(random.Random(1), backoffs)
    bounds = []
    for _ in range(8):
        reconnect.opened(0.0)
        wait = reconnect.closed(1013, 0.1)  # accepted, then refused at once
        bounds.append(min(BUSY_CAP_S, 2 ** (reconnect.busy - 1)))
        assert 0 <= wait <= bounds[-1]
    assert bounds == [1, 2, 4, 8, 16, BUSY_CAP_S, BUSY_CAP_S, BUSY_CAP_S]
    assert backoffs.closes[1013] == 8 and backoffs.waits["busy"] == 8


def test_a_socket_that_stayed_open_starts_the_count_again():
    reconnect = Reconnect(random.Random(2), Backoffs())
    for _ in range(5):
        reconnect.opened(0.0)
        reconnect.closed(1013, 0.1)
    reconnect.opened(10.0)
    assert reconnect.closed(1013, 12.0) <= 1.0  # open 2 s (past 1.5 s): the first refusal again
    assert reconnect.busy == 1


def test_a_lost_connection_backs_off_as_htmx_does_from_each_open():
    reconnect = Reconnect(random.Random(3), Backoffs())
    waits = [reconnect.failed() for _ in range(8)]  # handshakes that failed, one after another
    # htmx's 250 ms doubling to 5 s; from the sixth loss in a row on, doubling on to 30 s.
    bounds = [0.5, 1.0, 2.0, 4.0, 5.0, 16.0, 30.0, 30.0]
    for bound, wait in zip(bounds, waits, strict=True):
        assert bound / 2 <= wait <= bound
    reconnect.opened(0.0)
    assert 0.125 <= reconnect.closed(None, 60.0) <= 0.25  # no close frame: 1006, counted again from the open
    assert 0.2 <= reconnect.closed(1001, 61.0) <= 1.0  # going away


def test_sockets_dropped_before_they_settle_count_as_losses_in_a_row():
    """A swamped server takes a socket and drops it at once: htmx alone would count from zero
    at every open and come back within 250 ms for ever; the page (and the bot) count those
    losses in a row, so the waits grow past 5 s; a socket that settled starts the count again."""
    reconnect = Reconnect(random.Random(5), Backoffs())
    waits = []
    for moment in range(8):
        reconnect.opened(float(moment))
        waits.append(reconnect.closed(None, moment + 0.2))  # no close frame, 200 ms after opening
    assert waits[0] <= 0.5 and waits[-1] >= 15.0 and all(b >= a / 2 for a, b in itertools.pairwise(waits))
    reconnect.opened(100.0)
    assert reconnect.closed(None, 102.0) <= 0.25  # open 2 s: settled, counted from zero again


def test_a_refusal_that_asks_for_a_least_wait_is_waited_between_its_half_and_the_whole():
    """The server's refusal asks for a least wait (``data-retry-after``, longer the busier it is):
    the bound is at least that, and the wait no shorter than its half; asked once, for the next wait."""
    reconnect = Reconnect(random.Random(4), Backoffs())
    waits = []
    for _ in range(20):
        reconnect.opened(0.0)
        reconnect.retry_after = 10.0
        waits.append(reconnect.closed(1013, 0.1))
        reconnect.busy = 0  # the first refusal of a run each time: a bound of 1 s without the ask
    assert all(5.0 <= wait <= 10.0 for wait in waits), waits
    reconnect.opened(0.0)
    assert reconnect.closed(1013, 0.1) <= 2.0  # nothing asked this time: the doubling bound alone
