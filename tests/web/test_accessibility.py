"""The lobby, the table, the history and the account pages pass axe-core with no serious or
critical violation (axe-core is installed by scripts/ensure-services and injected by Playwright)."""

import pytest

from tables import services

from ..support.browser import PHONE, act_when_ready, in_thread, open_table, sign_up, take_seat
from ..support.decks import SHOWDOWN_DECK, deck_from
from ..support.processes import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = ROOT / ".venv" / "node" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}


def assert_accessible(page) -> None:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document)).violations")
    blocking = [
        f"{v['id']} ({v['impact']}): {v['help']} at {[node['target'] for node in v['nodes']][:3]}"
        for v in found
        if v["impact"] in BLOCKING
    ]
    assert not blocking, f"{page.url}:\n" + "\n".join(blocking)


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (scripts/ensure-services installs it)")
@pytest.mark.parametrize(
    ("viewport", "locale"), [(None, None), (PHONE, None), (PHONE, "es-ES")], ids=["desktop", "phone", "phone-es"]
)
def test_the_pages_have_no_serious_accessibility_violation(open_tab, make_table, viewport, locale):
    table = make_table(name="Axe PL", time_bank_initial_seconds=30, time_bank_cap_seconds=60)
    width = ("phone" if viewport else "desktop") + (f"_{locale[:2]}" if locale else "")
    alice = open_tab(viewport, locale=locale) if viewport else open_tab()
    bob = open_tab()
    sign_up(alice, f"axe_alice_{width}")
    sign_up(bob, f"axe_bob_{width}")
    alice.goto("/")
    assert_accessible(alice)
    for page, seat in ((alice, 1), (bob, 2)):
        open_table(page, table)
        take_seat(page, seat, 200)
    in_thread(services.start_hand_if_due, table_id=table.pk, deck=deck_from(SHOWDOWN_DECK))
    alice.wait_for_selector('#controls button[data-act="call"]')
    assert_accessible(alice)  # the table, with the controls of the player to act
    act_when_ready(alice, "fold")
    alice.goto("/hands/")
    assert_accessible(alice)
    alice.click("main a[href^='/hands/']")
    alice.wait_for_load_state()
    assert_accessible(alice)
    alice.goto("/accounts/profile/")
    assert_accessible(alice)
