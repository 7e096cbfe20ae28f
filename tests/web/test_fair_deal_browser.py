"""Fair dealing in a real browser (docs/fair-dealing.md): each seated page sends its own random
value for the next hand, and the hand page checks its proof with Web Crypto, under the site's
Content-Security-Policy (static script, no inline code)."""

import json
import time
from datetime import timedelta

import pytest

from tables import services
from tables.models import DealContribution, Hand

from ..support.browser import BROWSER_WAIT_MS, SCREENSHOTS, in_thread
from ..support.fairness import check_down
from .test_browser import sign_up, take_seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def strict_tab(chromium, live_server_url):
    """A page with the Content-Security-Policy enforced (no eval: the test polls from Python)."""
    contexts = []

    def open_one():
        context = chromium.new_context(base_url=live_server_url)
        context.set_default_timeout(BROWSER_WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        return page

    yield open_one
    for context in contexts:
        context.close()


def wait_for(predicate, timeout=8.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def verify_on_page(page, hand) -> str:
    page.goto(f"/hands/{hand.pk}/")
    page.click("#verify-proof")
    page.wait_for_selector("#verify-result[data-outcome]")
    return page.get_attribute("#verify-result", "data-outcome") + ": " + page.inner_text("#verify-result")


def test_browsers_contribute_and_the_hand_page_verifies_its_proof(strict_tab, make_table):
    table = make_table(name="Browser Fair Deal")
    alice, bob = strict_tab(), strict_tab()
    sign_up(alice, "alice")
    sign_up(bob, "bob")
    for page in (alice, bob):
        page.goto(f"/tables/{table.pk}/")
        page.wait_for_selector("#sit-form")
    take_seat(alice, 1, 200)
    take_seat(bob, 2, 200)
    wait_for(lambda: DealContribution.objects.filter(table=table).count() == 2)

    hand = in_thread(services.start_hand_if_due, table_id=table.pk)
    assert [each["source"] for each in hand.contributions] == ["player", "player"]
    players = {seat.player.username: seat.player for seat in table.seats.select_related("player")}
    in_thread(check_down, table, players)
    hand.refresh_from_db()
    # The next hand's commitment reached both pages, and each sent a value for it.
    wait_for(lambda: DealContribution.objects.filter(table=table).count() == 2)

    outcome = verify_on_page(alice, hand)
    assert outcome.startswith("verified: Verified: all 13 cards"), outcome
    assert "The value this browser sent for the hand is the one it used." in outcome, outcome

    Hand.objects.filter(pk=hand.pk).update(ended_at=hand.ended_at - timedelta(hours=25))
    outcome = verify_on_page(alice, hand)
    assert outcome.startswith("verified") and "full reveal checks too" in outcome, outcome
    alice.screenshot(path=str(SCREENSHOTS / "hand-page-fair-deal.png"), full_page=True)

    def tampered(route):
        proof = json.loads(route.fetch().text())
        proof["cards"][0]["salt"] = ("1" if proof["cards"][0]["salt"][0] == "0" else "0") + proof["cards"][0]["salt"][
            1:
        ]
        route.fulfill(json=proof)

    def swapped_contribution(route):
        proof = json.loads(route.fetch().text())
        proof["own_contribution"]["value"] = "00" * 32  # not what alice's browser sent
        route.fulfill(json=proof)

    alice.route(f"**/hands/{hand.pk}/proof.json", swapped_contribution)
    outcome = verify_on_page(alice, hand)
    assert outcome.startswith("failed") and "the hand used another" in outcome, outcome

    bob.route(f"**/hands/{hand.pk}/proof.json", tampered)
    outcome = verify_on_page(bob, hand)
    assert outcome.startswith("failed") and "does not lead to the Merkle root" in outcome, outcome
