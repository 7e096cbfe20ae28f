"""The example in the engine's package docstring runs as written."""

import doctest

import tables.engine


def test_package_docstring_example():
    result = doctest.testmod(tables.engine, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5 and result.failed == 0
