"""A sit & go in real browsers against a real daphne: three players register from the
tournament's page, each is alerted when it starts (RULES 8.2) and goes to their table from the
alert, a watcher follows the lobby live (entrants, the level rising, RULES 8.3, the finish),
and they play with clicks on the real buttons until one has every chip (RULES 8.6); the winner's
bankroll shows the prize (RULES 8.1, 8.10).

The test runs the clock itself (the server has none): ``run_clock`` with the real time deals the
hands and moves the tournament on between them; one tick of the tournaments' clock a minute
ahead ends the first level, as a level's time running out would.
"""

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError

from tables.services.clock import run_clock
from tournaments.models import Result, Tournament
from tournaments.services.clock import tick as tournament_tick

from ..support.browser import DESKTOP, PHONE, in_thread, screenshot, sign_up
from ..support.phones import layout_problems
from ..tournaments.support import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def register_from_the_page(page, tournament):
    page.goto("/tournaments/")
    page.click(f'#tournament-rows a[href="/tournaments/{tournament.pk}/"]')
    page.click(f'main form[action="/tournaments/{tournament.pk}/register/"] button[type=submit]')
    page.wait_for_url(f"**/tournaments/{tournament.pk}/")


def take_a_turn(page) -> bool:
    """If it is this page's turn, play it the way that ends the game soonest: the biggest
    raise offered (the Pot shortcut), else call, else check. Returns whether it acted."""
    kinds = page.eval_on_selector_all("#controls button[data-act]", "els => els.map(e => e.dataset.act)")
    if not kinds:
        return False
    sequence = page.get_attribute("#controls", "data-sequence")
    try:
        wager = next((kind for kind in ("raise", "bet") if kind in kinds), None)
        if wager is not None:
            presets = page.locator("#controls .preset")
            if presets.count():
                presets.last.click()
            page.click(f'#controls button[data-act="{wager}"]')
        else:
            page.click(f'#controls button[data-act="{"call" if "call" in kinds else "check"}"]')
        page.wait_for_selector(f'#controls:not([data-sequence="{sequence}"])', state="attached", timeout=15000)
    except PlaywrightError:
        return False  # the turn moved on under the click (a new frame): the next pass looks again
    return True


def test_a_sit_and_go_from_registration_to_the_winners_prize(open_tab, no_pause_between_hands):
    tournament = make_tournament(
        name="Browser SNG",
        seats_per_table=3,
        max_entrants=3,
        min_entrants=3,
        buy_in=100,
        fee=10,
        starting_chips=100,
        levels=[(10, 20, 0, 1), (25, 50, 0, 1), (50, 100, 0, 1)],
    )
    watcher = open_tab(PHONE)
    watcher.goto("/tournaments/")
    watcher.wait_for_function("window.socketOpen === true")
    row = f"#tournament-row-{tournament.pk}"
    pages = {
        name: open_tab(DESKTOP if name != "sng_carol" else PHONE) for name in ("sng_alice", "sng_bob", "sng_carol")
    }
    for name, page in pages.items():
        sign_up(page, name)
    alice, bob, carol = pages.values()

    # Two register; their tournament pages listen for the start. The lobby follows live.
    for page in (alice, bob):
        register_from_the_page(page, tournament)
        page.wait_for_function("window.socketOpen === true")
    watcher.wait_for_selector(f"{row} td.entrants >> text=2/3")
    assert watcher.inner_text(f"{row} td.prize-pool") == "200"
    assert "You are registered" in alice.inner_text("main")

    # The third fills it: it starts, and each of them is alerted with a link to their table.
    register_from_the_page(carol, tournament)
    for page in pages.values():
        page.wait_for_selector('#room-alert a[href^="/tables/"]')
        assert "Browser SNG has started" in page.inner_text("#room-alert")
        assert page.get_attribute("html", "data-last-alert") == f"tournament-{tournament.pk}-start"
    screenshot(carol, "tournament-phone-start-alert")
    assert layout_problems(carol) == []  # 390 px: no sideways scroll, the alert's link a finger's size
    watcher.wait_for_selector(f'{row}[data-state="running"]')
    assert watcher.inner_text(f"{row} td.level").startswith("1: 10/20")

    # The first level's time runs out (RULES 8.3): the lobby shows the next level at once.
    in_thread(tournament_tick, timezone.now() + timedelta(seconds=61))
    watcher.wait_for_selector(f"{row} td.level >> text=2: 25/50")
    assert watcher.locator(f"{row} td.level time.until").is_visible()
    screenshot(watcher, "tournament-lobby-phone-running")
    assert layout_problems(watcher) == []

    for page in pages.values():
        page.click("#room-alert a.button")
        page.wait_for_url("**/tables/*/")
        page.wait_for_function("window.socketOpen === true && (window.socketMessages || 0) > 0")

    # They play, with clicks, until one holds every chip; the clock deals and eliminates.
    give_up_at = time.monotonic() + 600
    while Tournament.objects.get(pk=tournament.pk).state != Tournament.State.FINISHED:
        assert time.monotonic() < give_up_at, "the sit & go did not finish"
        in_thread(run_clock)
        if not any(take_a_turn(page) for page in pages.values()):
            time.sleep(0.3)

    watcher.wait_for_selector(f'{row}[data-state="finished"]')
    winner = Result.objects.select_related("player").get(tournament=tournament, place=1)
    assert winner.prize == 300  # three buy-ins; three entrants pay one place (the fees are the house's)
    page = pages[winner.player.username]
    page.goto("/accounts/profile/")
    assert page.get_attribute("#header-chips", "data-bankroll") == str(10000 - 110 + 300)
    for name, other in pages.items():
        if name != winner.player.username:
            other.goto("/accounts/profile/")
            assert other.get_attribute("#header-chips", "data-bankroll") == str(10000 - 110)
    page.goto(f"/tournaments/{tournament.pk}/")
    assert winner.player.username in page.inner_text("table.results")
