"""The examples in the engine's docstrings run as written: the package interface and its key rules."""

import doctest

import pytest

import tables.engine
from tables.engine import betting, hand, positions, pots


def run_examples(module, name: str | None = None) -> doctest.TestResults:
    """Run the examples of ``module``'s docstrings (only those of ``module.name`` if given)."""
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(module):
        if name is None or test.name == f"{module.__name__}.{name}":
            runner.run(test)
    return runner.summarize(verbose=False)


def test_package_docstring_example():
    result = doctest.testmod(tables.engine, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5 and result.failed == 0


@pytest.mark.parametrize(
    ("module", "name", "examples"),
    [
        (betting, "PotLimitRound.bounds", 5),  # RULES 3.6, 3.7: pot-size raises, the minimum, all-in for less
        (pots, "layer_pots", 2),  # RULES 4.1, 4.2: side pots by contribution levels
        (positions, "plan_next_hand", 8),  # RULES 2.1, 2.3, 2.9: the first hand, a dead small blind, a dead button
        (hand, "Hand.timeout_outcome", 5),  # RULES 6.2: what a timeout makes of the seat to act
    ],
)
def test_rule_examples_in_the_docstrings(module, name, examples):
    result = run_examples(module, name)
    assert result.attempted == examples and result.failed == 0
