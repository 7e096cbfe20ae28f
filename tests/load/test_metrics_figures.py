"""The load harness reads the operator's metrics: quantiles from merged histogram buckets, as
Prometheus' histogram_quantile estimates them."""

from bench.load.metrics import _quantiles


def _buckets(counts: dict[str, float]) -> dict[tuple, float]:
    return {("omaha_action_seconds_bucket", (("le", le),)): count for le, count in counts.items()}


def test_quantiles_interpolate_within_the_bucket_they_fall_in():
    sums = _buckets({"0.01": 50, "0.1": 100, "+Inf": 100})
    assert _quantiles(sums, "omaha_action_seconds_bucket") == {"p50": 10.0, "p99": 98.2}


def test_no_observation_is_no_quantile():
    assert _quantiles(_buckets({"0.01": 0, "+Inf": 0}), "omaha_action_seconds_bucket") == {"p50": None, "p99": None}


def test_quantiles_of_one_labelled_series_leave_the_others_out():
    name = "omaha_gc_pause_seconds_bucket"
    young = {"0.01": 100, "0.1": 100, "0.5": 100, "+Inf": 100}
    full = {"0.01": 0, "0.1": 0, "0.5": 2, "+Inf": 2}
    sums = {(name, (("generation", "0"), ("le", le))): count for le, count in young.items()}
    sums |= {(name, (("generation", "2"), ("le", le))): count for le, count in full.items()}
    assert _quantiles(sums, name, generation="2") == {"p50": 300.0, "p99": 496.0}
    assert _quantiles(sums, name)["p50"] == 5.1  # every series added up: the many short pauses
