"""The sweep's overload check (issue target: past saturation the room slows down, it does not
fall over): the largest size must keep 90 % of the peak served actions/s."""

from bench.load.sweep import overload_failures


def _row(tables: int, served: float | None) -> dict:
    return {"tables": tables, "served_per_second": served}


def test_a_sweep_whose_largest_size_keeps_its_throughput_passes():
    rows = [_row(50, 25.0), _row(200, 95.0), _row(400, 120.0), _row(800, 110.0)]
    assert overload_failures(rows) == []


def test_a_sweep_whose_largest_size_collapses_fails_naming_the_peak():
    rows = [_row(50, 25.0), _row(200, 95.0), _row(400, 120.0), _row(800, 40.0)]
    (failure,) = overload_failures(rows)
    assert "800 tables served 40.0" in failure and "peak 120.0" in failure and "400 tables" in failure


def test_a_largest_size_that_served_nothing_fails():
    assert overload_failures([_row(100, 50.0), _row(800, None)])


def test_one_size_alone_has_no_peak_to_compare_with():
    assert overload_failures([_row(800, 1.0)]) == []
