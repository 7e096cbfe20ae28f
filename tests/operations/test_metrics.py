"""/metrics: Prometheus' text format, read here with the client library's own parser; staff
or the configured networks only; no label names a table or a player."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from prometheus_client.parser import text_string_to_metric_families

from ..support.sockets import db, table_viewer
from ..support.tables import act, running_hand, start_hand, table_version

pytestmark = pytest.mark.django_db(transaction=True)


def scrape(client) -> dict[tuple[str, tuple], float]:
    """(sample name, its labels) -> value, as Prometheus would read /metrics."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_answer_the_allowed_networks_and_staff_only(client, settings, django_user_model):
    settings.METRICS_ALLOWED_NETWORKS = ["10.0.0.0/8"]
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 404
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    staff = django_user_model.objects.create_user(username="operator", password="x-Strong-pass-1", is_staff=True)
    client.force_login(staff)
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200


def test_an_action_a_refusal_a_hand_and_the_ledger_are_counted(heads_up, client, assert_audit_clean):
    table, alice, _bob = heads_up
    before = scrape(client)

    async def play():
        alice_tab = await table_viewer(table, alice).connect()
        hand = await db(start_hand, table)
        opened = await db(scrape, client)
        assert value(opened, "omaha_sockets_open", page="table", viewer="logged_in") == 1
        assert value(opened, "omaha_tables_playing") == 1  # a seated player's screen shown here
        await alice_tab.send(action="fold", sequence=hand.sequence + 5)  # a stale sequence: refused
        await alice_tab.until("table-error")
        hand, version = await db(running_hand, table), await db(table_version, table)
        await alice_tab.send(action="fold", sequence=hand.sequence)  # heads-up, alice on the button acts first
        await alice_tab.until_version(version + 1, timeout=5)
        await alice_tab.close()

    async_to_sync(play)()
    after = scrape(client)
    assert (
        value(after, "omaha_actions_total", result="applied", reason="")
        - value(before, "omaha_actions_total", result="applied", reason="")
        == 1
    )
    refused = {
        labels: v - before.get((name, labels), 0.0)
        for (name, labels), v in after.items()
        if name == "omaha_actions_total" and dict(labels)["result"] == "refused"
    }
    assert sum(refused.values()) == 1, refused
    assert value(after, "omaha_action_seconds_count") - value(before, "omaha_action_seconds_count") == 1
    assert value(after, "omaha_hands_total", event="started") - value(before, "omaha_hands_total", event="started") == 1
    assert (
        value(after, "omaha_hands_total", event="completed") - value(before, "omaha_hands_total", event="completed")
        == 1
    )
    assert value(after, "omaha_screens_publish_seconds_count") > value(before, "omaha_screens_publish_seconds_count")
    assert value(after, "omaha_ledger_movements_total", kind="buy_in") >= 2  # the heads-up's two seats
    assert value(after, "omaha_sockets_open", page="table", viewer="logged_in") == 0
    assert value(after, "omaha_tables_playing") == 0
    # Measured when read: the room and the round trips.
    assert value(after, "omaha_tables_open") == 1 and value(after, "omaha_tables_running") == 0
    assert value(after, "omaha_database_up") == 1 and value(after, "omaha_database_roundtrip_seconds") > 0
    assert_audit_clean()


def test_no_label_names_a_table_or_a_player(heads_up, client):
    table, alice, _bob = heads_up
    start_hand(table)
    act(table, alice, "fold")
    labels = {name for (_, sample_labels) in scrape(client) for name, _ in sample_labels}
    assert not labels & {"table", "table_id", "player", "user", "user_id", "hand"}


def test_the_clock_counts_its_ticks_its_lag_and_timeouts_by_outcome(heads_up, client):
    from datetime import timedelta

    from django.utils import timezone

    from tables.services import run_clock

    table, _alice, _bob = heads_up
    hand = start_hand(table)
    before = scrape(client)
    late = hand.turn_deadline + timedelta(seconds=2)
    run_clock(now=late)  # the first expiry starts alice's time bank, if she has one
    while (current := running_hand(table)) is not None and current.turn_deadline is not None:
        late = max(late, current.turn_deadline) + timedelta(seconds=2)
        run_clock(now=late)
        if timezone.now() + timedelta(hours=2) < late:
            break
    after = scrape(client)
    assert value(after, "omaha_clock_ticks_total") > value(before, "omaha_clock_ticks_total")
    assert value(after, "omaha_clock_last_tick_timestamp_seconds") > 0
    timeouts = sum(
        v - before.get((name, labels), 0.0) for (name, labels), v in after.items() if name == "omaha_timeouts_total"
    )
    assert timeouts >= 1
    lag_count = value(after, "omaha_clock_lag_seconds_count") - value(before, "omaha_clock_lag_seconds_count")
    lag_sum = value(after, "omaha_clock_lag_seconds_sum") - value(before, "omaha_clock_lag_seconds_sum")
    # Each expiry ran 2 s after its deadline (the sums are floats: 2 can come back as 1.9999999999999998).
    assert lag_count >= 1 and round(lag_sum / lag_count, 6) >= 2


def test_every_series_the_shipped_dashboard_and_alerts_read_is_exported(heads_up, client):
    """docs/monitoring: the sample Grafana dashboard and the two alert rules name real series."""
    import json
    import re
    from pathlib import Path

    table, alice, _bob = heads_up
    start_hand(table)
    act(table, alice, "fold")
    docs = Path(__file__).resolve().parents[2] / "docs" / "monitoring"
    dashboard = json.loads((docs / "grafana-dashboard.json").read_text())
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    rules = (docs / "alerts.yml").read_text()  # YAML; its names are all this needs
    assert re.findall(r"- alert: (\w+)", rules) == ["OmahaClockLagging", "OmahaConnectsRefused"]
    exprs.append(rules)
    named = {name for expr in exprs for name in re.findall(r"\bomaha_\w+", expr)}
    response = client.get("/metrics").content.decode()
    exported = {sample.name for family in text_string_to_metric_families(response) for sample in family.samples}
    assert named and named <= exported, named - exported


def test_a_server_process_measures_its_collectors_pauses_and_keeps_what_it_loaded_out_of_them():
    """operations.gc_pauses, set up by config.asgi (the daphne processes; in a process of its
    own, as the test processes leave it off: tests/support/workers.py): every collection's
    pause is observed by generation, what the process loaded at start is frozen (a full
    collection does not walk it), and full collections are minutes apart."""
    import os
    import subprocess
    import sys

    script = (
        "import gc, config.asgi\n"
        "from operations import gc_pauses, metrics\n"
        "full = metrics.GC_PAUSE_SECONDS.labels('2')\n"
        "before = full._sum.get()\n"
        "gc.collect()\n"
        "print(gc_pauses._observe in gc.callbacks, gc.get_freeze_count() > 0, gc.get_threshold(), full._sum.get() > before)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "WEB_GC_TUNING": "1"}
    env.pop("WEB_GC_THRESHOLDS", None)
    ran = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split("\n")[-2] == "True True (1000, 20, 2000) True"
    off = subprocess.run(
        [sys.executable, "-c", "import gc, config.asgi; print(gc.get_freeze_count(), gc.get_threshold())"],
        env={**env, "WEB_GC_TUNING": "0"}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert off.stdout.split("\n")[-2] == "0 (700, 10, 10)", off.stderr


def test_the_collectors_thresholds_are_a_setting_of_the_server_processes():
    import gc

    from operations import gc_pauses

    before = gc.get_threshold()
    try:
        gc_pauses.tune(())
        assert gc.get_threshold() == before  # empty: CPython's own
        gc_pauses.tune((5000, 20, 40))
        assert gc.get_threshold() == (5000, 20, 40)
    finally:
        gc.set_threshold(*before)


def test_a_pause_with_no_stack_left_to_observe_it_is_not_observed_and_raises_nothing():
    """A collection runs wherever the process is, the bottom of a deep stack too (a hostile
    frame's nesting being refused, ``tables.forms``): observing its pause there must not print
    a traceback on the server's error output (the load harness counts those as server errors).
    With the stack's room cut to a few frames more than here, the callback either cannot be
    entered at all (CPython's own refusal, before it runs) or raises nothing."""
    import sys
    import traceback

    from operations import gc_pauses

    limit = sys.getrecursionlimit()
    lowest = 2
    while True:  # the lowest limit this depth allows
        try:
            sys.setrecursionlimit(lowest)
            break
        except RecursionError:
            lowest += 1
    sys.setrecursionlimit(limit)
    raised_inside = []
    for room in range(1, 12):
        gc_pauses._observe("start", {"generation": 2})
        sys.setrecursionlimit(lowest + room)
        raised = None
        try:
            gc_pauses._observe("stop", {"generation": 2})
        except RecursionError as error:
            raised = error
        finally:
            sys.setrecursionlimit(limit)
        frames = [] if raised is None else [frame.name for frame in traceback.extract_tb(raised.__traceback__)]
        if "_observe" in frames:
            raised_inside.append((room, frames))
    assert not raised_inside, raised_inside
