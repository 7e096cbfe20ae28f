"""Real browsers against a real daphne: sign up, sit down, play hands, watch as a spectator.

Hands are dealt from the test process with a chosen deck
(``start_hand_if_due(deck=...)``), the test-only path the ticker never takes.
"""

import time
import uuid

import pytest

from tables import services
from tables.models import HandEvent

from ..support.browser import (
    DESKTOP,
    PASSWORD,
    PHONE,
    act,
    act_when_ready,
    cards_on,
    catch_up,
    hole_cards_on,
    in_thread,
    open_lobby,
    open_table,
    screenshot,
    sign_up,
    take_seat,
)
from ..support.decks import SEAT_1_CARDS, SEAT_2_CARDS, SHOWDOWN_DECK, deck_from

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_pot_limit_hand_to_showdown_with_a_spectator(open_tab, make_table):
    table = make_table(name="Browser Pot Limit")  # Pot Limit 1/2, buy-in 40-200
    alice = open_tab()
    bob = open_tab(PHONE)
    spectator = open_tab()
    sign_up(alice, "alice")
    sign_up(bob, "bob")
    for page in (alice, bob, spectator):
        open_table(page, table)
    take_seat(alice, 1, 200)
    take_seat(bob, 2, 200)
    in_thread(services.start_hand_if_due, table_id=table.pk, deck=deck_from(SHOWDOWN_DECK))

    # Pre-flop: alice (button, small blind) raises the pot, bob calls.
    alice.wait_for_selector('#controls button[data-act="raise"]')
    # RULES 6.1: 10 seconds to act, then a 20-second countdown: not shown yet.
    assert alice.locator("#felt .seat.to-act .countdown").is_hidden()
    presets = alice.locator("#controls .preset").all_inner_texts()
    # Raise to 4 at least, 6 at most; half the pot after the call is 2 more, to 4: the minimum.
    assert [text.split()[0] for text in presets] == ["Min", "Pot"]
    alice.click("#controls .preset >> text=Pot")
    assert alice.input_value("#controls input[name=amount]") == "6"
    screenshot(alice, "table-desktop-your-turn")
    act(alice, "raise")
    bob.wait_for_selector("#controls >> text=Call 4")
    screenshot(bob, "table-phone-your-turn")
    act(bob, "call")

    # After the flop bob, left of the button, acts first; all checked through.
    bob.wait_for_selector('#controls button[data-act="check"]')
    catch_up(spectator, bob)
    assert hole_cards_on(spectator) == set()  # a spectator never sees a hole card mid-hand
    screenshot(spectator, "table-desktop-spectator")
    act(bob, "check")
    act_when_ready(alice, "check")
    # Turn: alice ticks "Check/Fold" while bob thinks; her check goes out when the turn reaches her.
    check_fold = '#pre-actions [data-pre-action="check-fold"]'
    alice.check(check_fold)
    act_when_ready(bob, "check")
    bob.wait_for_selector('#controls button[data-act="check"]')  # the river: alice has checked
    assert bob.inner_text("#hand-log").count("alice checks") == 2  # on the flop, and now on the turn
    assert not alice.is_checked(check_fold)  # used once
    catch_up(spectator, bob)
    assert hole_cards_on(spectator) == set()
    act(bob, "check")
    act_when_ready(alice, "check")

    # Showdown: both hands shown, alice's kings full wins; the five winning cards are highlighted.
    spectator.wait_for_selector("#felt .seat.winner")
    assert hole_cards_on(spectator) == set(SEAT_1_CARDS + SEAT_2_CARDS)
    assert set(cards_on(spectator, "#felt .card.winning")) == {"Kd", "Kh", "Ks", "7h", "7d"}
    assert spectator.get_by_role("img", name="King of diamonds, winning card").first.is_visible()
    assert "alice wins the pot (12)" in spectator.inner_text("#hand-log")
    screenshot(alice, "table-desktop-showdown")
    screenshot(bob, "table-phone-showdown")
    screenshot(spectator, "table-desktop-showdown-spectator")

    # The four-colour deck (under Settings): diamonds blue, clubs green; remembered by the browser.
    spectator.click("details.settings summary")
    spectator.check("#four-colour-deck")
    diamond_colour = "el => getComputedStyle(el).color"
    assert spectator.eval_on_selector('#felt [data-card="Kd"]', diamond_colour) == "rgb(21, 101, 192)"
    assert spectator.eval_on_selector('#felt [data-card="Ac"]', diamond_colour) == "rgb(46, 125, 50)"
    spectator.reload()
    spectator.wait_for_function("window.socketOpen === true")
    assert spectator.is_checked("#four-colour-deck")
    screenshot(spectator, "table-desktop-four-colour")


def test_limit_amounts_are_fixed_and_raising_stops_at_the_cap(open_tab, make_table):
    """RULES 3.5: bets and raises of one small bet before the turn, one big bet after; four bets cap a round."""
    # No quiet time before the countdown, so it shows at once (RULES 6.1: both are table settings).
    table = make_table(
        name="Browser Limit",
        variant="limit",
        stake_small=10,
        stake_big=20,
        min_buy_in=200,
        max_buy_in=1000,
        action_seconds=0,
    )
    alice, bob = open_tab(), open_tab(PHONE)
    sign_up(alice, "lim_alice")
    sign_up(bob, "lim_bob")
    for page in (alice, bob):
        open_table(page, table)
    take_seat(alice, 1, 1000)
    take_seat(bob, 2, 1000)
    in_thread(services.start_hand_if_due, table_id=table.pk, deck=deck_from(SHOWDOWN_DECK))

    # The big blind (10) is the first bet; alice raises to 20, bob to 30, alice caps it at 40.
    for page, raise_to in [(alice, 20), (bob, 30), (alice, 40)]:
        page.wait_for_selector('#controls button[data-act="raise"]')
        assert page.inner_text('#controls button[data-act="raise"]') == f"Raise to {raise_to}"
        assert page.locator("#controls input[name=amount][type=number]").count() == 0  # no amount to choose
        act(page, "raise")
    bob.wait_for_selector("#controls >> text=Call 10")
    assert bob.locator('#controls button[data-act="raise"]').count() == 0  # capped: call or fold only
    countdown = bob.locator("#felt .seat.to-act .countdown")
    assert countdown.is_visible() and 15 <= int(countdown.locator(".countdown-seconds").inner_text()) <= 20
    screenshot(bob, "limit-phone-capped")
    act(bob, "call")

    # Flop: the small bet (10); turn: the big bet (20).
    bob.wait_for_selector('#controls button[data-act="bet"]')
    assert bob.inner_text('#controls button[data-act="bet"]') == "Bet 10"
    act(bob, "check")
    act_when_ready(alice, "check")
    bob.wait_for_selector('#controls button[data-act="bet"]')
    assert bob.inner_text('#controls button[data-act="bet"]') == "Bet 20"
    screenshot(alice, "limit-desktop-turn")


def test_the_lobby_updates_seats_and_average_pot_live(open_tab, make_table, make_player):
    table = make_table(name="Lobby Live")  # Pot Limit 1/2
    make_table(name="Limit 10/20", variant="limit", stake_small=10, stake_big=20, min_buy_in=200, max_buy_in=1000)
    alice, bob = make_player("lobby_alice"), make_player("lobby_bob")
    desktop, phone = open_tab(), open_tab(PHONE)
    for page in (desktop, phone):
        page.goto("/")
        page.wait_for_function("window.socketOpen === true")
    row = f"#lobby-table-{table.pk}"
    assert desktop.inner_text(f"{row} .lobby-seats") == "0/6"
    assert desktop.inner_text(f"{row} .lobby-pot") == "–"

    for player, seat in [(alice, 1), (bob, 2)]:
        in_thread(services.take_seat, user=player, table_id=table.pk, seat_number=seat, buy_in=200,
                  post_big_blind_now=False, request_id=uuid.uuid4().hex)  # fmt: skip
    desktop.wait_for_selector(f"{row} .lobby-seats >> text=2/6")
    # One hand: alice raises to 6, bob folds; 4 is returned uncalled, 4 is awarded.
    hand = in_thread(services.start_hand_if_due, table_id=table.pk)
    in_thread(services.act, table_id=table.pk, user=alice, kind="raise", amount=6, sequence=hand.sequence)
    hand.refresh_from_db()
    in_thread(services.act, table_id=table.pk, user=bob, kind="fold", amount=None, sequence=hand.sequence)
    desktop.wait_for_selector(f"{row} .lobby-pot >> text=4")
    phone.wait_for_selector(f"{row} .lobby-pot >> text=4")
    screenshot(desktop, "lobby-desktop")
    screenshot(phone, "lobby-phone")


def test_the_lobby_keeps_the_rows_its_socket_sends_again_unchanged(open_tab, make_table, make_player):
    """The lobby socket's snapshot repeats the rows the page was served with: they stay in place
    (a click whose press and release straddle that frame still lands on its link), and a row
    that changes is still swapped."""
    table = make_table(name="Lobby Kept")
    page = open_tab()
    # The served rows marked once parsed, before the socket's first frame: with a property, not
    # an attribute, so they still equal the snapshot's.
    page.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => {"
        " const rows = document.getElementById('lobby-tables'); if (rows) rows.served = true; });"
    )
    open_lobby(page)  # the socket's snapshot has come
    assert page.evaluate("document.getElementById('lobby-tables').served === true")
    in_thread(services.take_seat, user=make_player("kept_alice"), table_id=table.pk, seat_number=1, buy_in=200,
              post_big_blind_now=False, request_id=uuid.uuid4().hex)  # fmt: skip
    page.wait_for_selector(f"#lobby-table-{table.pk} .lobby-seats >> text=1/6")


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_ten_seats_fit_without_overlapping(open_tab, make_table, make_player, viewport, name):
    table = make_table(name=f"Full ring {name}", variant="limit", stake_small=2, stake_big=4, seat_count=10,
                       min_buy_in=40, max_buy_in=400)  # fmt: skip
    players = [make_player(f"ring{name[0]}{number}player") for number in range(1, 11)]
    for number, player in enumerate(players, start=1):
        in_thread(services.take_seat, user=player, table_id=table.pk, seat_number=number, buy_in=400,
                  post_big_blind_now=False, request_id=uuid.uuid4().hex)  # fmt: skip
    in_thread(services.start_hand_if_due, table_id=table.pk)
    page = open_tab(viewport)
    page.goto("/accounts/login/")
    page.fill("#id_username", players[0].username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/")
    page.goto(f"/tables/{table.pk}/")  # full: the lobby offers "Watch"
    page.wait_for_function("window.socketMessages >= 1")  # the snapshot has replaced the served page
    page.wait_for_selector("#controls .my-cards")

    screenshot(page, f"ten-seats-{name}")
    boxes = [page.locator("#felt .seat").nth(k).bounding_box() for k in range(10)]
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    for k, first in enumerate(boxes):
        for second in boxes[k + 1 :]:
            assert apart(first, second), (first, second)


def apart(first: dict, second: dict) -> bool:
    """Two boxes that do not overlap: one is wholly left of, or wholly above, the other."""
    left, right = sorted((first, second), key=lambda box: box["x"])
    top, bottom = sorted((first, second), key=lambda box: box["y"])
    return left["x"] + left["width"] <= right["x"] or top["y"] + top["height"] <= bottom["y"]


def test_rule_6_2_the_other_player_sees_the_countdown_and_then_the_timeout(open_tab, make_table):
    """RULES 6.1 and 6.2 in a real browser: one player stops acting; the other sees the countdown
    run and then the timeout. The test runs the table clock itself (`services.run_clock`, what
    beat calls every second)."""
    table = make_table(name="Clock PL", action_seconds=1, countdown_seconds=4)
    ann, ben = open_tab(), open_tab()
    for page, name, seat in ((ann, "ann", 1), (ben, "ben", 2)):
        sign_up(page, name)
        open_table(page, table)
        take_seat(page, seat, 100)
    in_thread(services.start_hand_if_due, table_id=table.pk)
    # Heads-up the button (ann, seat 1, first to sit) acts first; she never does.
    clock = ben.locator("#felt .countdown:not(.waiting)")
    clock.wait_for(state="visible")
    shown = int(clock.locator(".countdown-seconds").inner_text())
    assert 1 <= shown <= 4  # only the last countdown_seconds are shown (RULES 6.1)
    screenshot(ben, "table-desktop-countdown")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not HandEvent.objects.filter(hand__table=table, type="timed_out").exists():
        in_thread(services.run_clock)
        time.sleep(0.25)
    ben.wait_for_selector("#hand-log >> text=ann ran out of time")
    # ann had the small blind in the pot: a protected all-in, not a fold (RULES 6.2).
    assert "all-in" in ben.locator("#hand-log").inner_text()
    screenshot(ben, "table-desktop-after-timeout")
