"""The load harness's per-window figures (bench.load.report): which actions fall in a window,
how unresolved ones count, and when a run of windows is back under a p99 bound."""

from bench.load.report import back_under, span, stays_under, windows


def test_span_takes_the_actions_sent_in_it_and_counts_an_unresolved_one_as_its_wait():
    samples = [(0.5, 0.010), (1.0, 0.020), (1.5, 0.030), (2.0, 0.040), (2.5, 0.050)]
    figures = span(samples, start=1.0, end=2.0, unresolved_sent=[1.2, 3.0], asked=4)
    assert figures == {"served": 2, "unresolved": 1, "p50": 30.0, "p99": 10_000.0, "asked": 4, "served_ratio": 0.5}
    assert span(samples, start=5.0, end=6.0)["p99"] is None


def test_windows_cover_the_span_in_order_the_last_one_shorter():
    samples = [(10.1, 0.5), (10.2, 0.4), (11.5, 0.05), (12.1, 0.03), (14.9, 0.02)]
    rows = windows(samples, start=10.0, end=15.0, width=2.0, asked_per_second=1.0)
    assert [(r["from_s"], r["to_s"], r["served"], r["asked"]) for r in rows] == [
        (0.0, 2.0, 3, 2),
        (2.0, 4.0, 1, 2),
        (4.0, 5.0, 1, 1),
    ]
    assert rows[0]["p99"] == 500.0 and rows[1]["p99"] == 30.0


def test_back_under_is_the_end_of_the_first_window_under_the_bound_stays_under_its_lasting_start():
    rows = [
        {"from_s": 0.0, "to_s": 2.0, "p99": 900.0},
        {"from_s": 2.0, "to_s": 4.0, "p99": 80.0},
        {"from_s": 4.0, "to_s": 6.0, "p99": 150.0},
        {"from_s": 6.0, "to_s": 8.0, "p99": None},  # no action sent in it
        {"from_s": 8.0, "to_s": 10.0, "p99": 60.0},
        {"from_s": 10.0, "to_s": 12.0, "p99": 70.0},
    ]
    assert back_under(rows, 100) == 4.0
    assert back_under(rows, 100, not_before=5.0) == 10.0  # every socket was back only then
    assert stays_under(rows, 100) == 8.0
    assert back_under(rows, 50) is None and stays_under(rows, 50) is None
    assert back_under(rows[3:4], 100) is None
