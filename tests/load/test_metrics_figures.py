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
