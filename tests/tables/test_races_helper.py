"""``at_once`` (tests/support/races.py), which the race tests rely on: the calls really run side
by side, and a call that fails unexpectedly or hangs fails the test instead of passing for None."""

import threading
from functools import partial

import pytest

from tests.support.races import at_once


def test_every_call_runs_at_the_same_time_and_its_result_comes_back_in_order():
    # Each call waits for all three to be inside their calls at once: run one after another they would time out.
    inside = threading.Barrier(3, timeout=10)

    def meet(number):
        inside.wait()
        return number * 10

    assert at_once([partial(meet, k) for k in range(3)]) == [0, 10, 20]


def test_an_expected_exception_is_the_calls_outcome():
    def refuse():
        raise ValueError("refused")

    outcomes = at_once([lambda: "applied", refuse], expected=ValueError)
    assert outcomes[0] == "applied"
    assert isinstance(outcomes[1], ValueError) and str(outcomes[1]) == "refused"


def test_an_unexpected_exception_is_raised_in_the_test():
    finished = []

    def crash():
        raise ZeroDivisionError("not one of the expected refusals")

    with pytest.raises(ZeroDivisionError, match="not one of the expected refusals"):
        at_once([lambda: finished.append("the other call") or "done", crash], expected=ValueError)
    assert finished == ["the other call"]  # the other call still ran to its end


def test_several_unexpected_exceptions_are_all_raised():
    def crash(message):
        raise KeyError(message)

    with pytest.raises(ExceptionGroup) as raised:
        at_once([partial(crash, "first"), partial(crash, "second"), lambda: "fine"], expected=ValueError)
    assert sorted(error.args[0] for error in raised.value.exceptions) == ["first", "second"]


def test_a_call_that_hangs_fails_the_test_naming_it():
    release = threading.Event()

    def stuck_on_a_lock():
        release.wait(30)

    try:
        with pytest.raises(AssertionError, match=r"still running after 2 s: .*call 1 \(.*stuck_on_a_lock"):
            at_once([lambda: "quick", stuck_on_a_lock], timeout=2)
    finally:
        release.set()
