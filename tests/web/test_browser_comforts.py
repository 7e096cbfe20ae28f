"""The table's comforts in a real browser: the hand in words, the time bank, chat, the turn cue,
keyboard play and seat management, at desktop and phone width with screenshots."""

import time

import pytest

from tables import services
from tables.models import Hand, HandEvent, Seat, WaitingListEntry

from ..support.browser import (
    DESKTOP,
    PHONE,
    act,
    act_when_ready,
    cards_on,
    catch_up,
    in_thread,
    open_lobby,
    open_table,
    screenshot,
    sign_up,
    take_seat,
)
from ..support.decks import SHOWDOWN_DECK, deck_from

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTHS = [(DESKTOP, "desktop"), (PHONE, "phone")]


@pytest.mark.parametrize(("viewport", "width"), WIDTHS)
def test_rule_5_2_the_player_reads_their_hand_from_the_flop_on(open_tab, make_table, viewport, width):
    table = make_table(name=f"Read-out {width}")
    alice, bob, spectator = open_tab(viewport), open_tab(viewport), open_tab(viewport)
    sign_up(alice, f"ro_alice_{width}")
    sign_up(bob, f"ro_bob_{width}")
    for page in (alice, bob, spectator):
        open_table(page, table)
    take_seat(alice, 1, 200)
    take_seat(bob, 2, 200)
    in_thread(services.start_hand_if_due, table_id=table.pk, deck=deck_from(SHOWDOWN_DECK))
    act_when_ready(alice, "call")
    assert alice.locator("#hand-readout").count() == 0  # pre-flop: no board, no words yet
    act_when_ready(bob, "check")
    # Flop Ks 7h 7d: alice's Kd Kh make kings full; bob's aces make two pair.
    alice.wait_for_selector("#hand-readout")
    assert alice.inner_text("#hand-readout .readout-words") == "Kings full of sevens"
    assert cards_on(alice, "#hand-readout [data-card]") == ["Kd", "Kh", "Ks", "7h", "7d"]
    assert set(cards_on(alice, "#controls .my-cards .card.best")) == {"Kd", "Kh"}
    bob.wait_for_selector("#hand-readout")
    assert bob.inner_text("#hand-readout .readout-words") == "Two pair, aces and sevens"
    catch_up(spectator, bob)
    assert spectator.locator("#hand-readout").count() == 0
    screenshot(alice, f"readout-{width}-flop")
    act(bob, "check")
    act_when_ready(alice, "check")
    # Turn 3c: updated on each street, still two hole cards and three board cards.
    bob.wait_for_selector("#controls button[data-act='check']")
    assert bob.inner_text("#hand-readout .readout-words") == "Two pair, aces and sevens"
    act(bob, "check")
    act_when_ready(alice, "check")
    act_when_ready(bob, "check")
    act_when_ready(alice, "check")
    # Showdown: the same words in the log.
    spectator.wait_for_selector("#hand-log >> text=shows Kings full of sevens")


def screenshots_at_both_widths(page, name):
    """A screenshot at desktop width and one at phone width, then back to the page's own."""
    own = page.viewport_size
    for viewport, width in WIDTHS:
        page.set_viewport_size(viewport)
        screenshot(page, f"{name}-{width}")
    page.set_viewport_size(own)


def run_clock_until(predicate, seconds=15):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not predicate():
        in_thread(services.run_clock)
        time.sleep(0.25)


def test_the_time_bank_countdown_follows_the_turn_s_own(open_tab, make_table):
    """RULES 6.1's time runs out, the bank runs as a second countdown, then RULES 6.2 applies."""
    table = make_table(
        name="Bank PL",
        action_seconds=0,
        countdown_seconds=2,
        time_bank_initial_seconds=4,
        time_bank_cap_seconds=4,
    )
    ann, ben = open_tab(), open_tab()
    for page, name, seat in ((ann, "bank_ann", 1), (ben, "bank_ben", 2)):
        sign_up(page, name)
        open_table(page, table)
        take_seat(page, seat, 100)
    assert ben.inner_text("#seat-1 .seat-bank") == "Bank 4s"
    in_thread(services.start_hand_if_due, table_id=table.pk)
    ben.locator("#felt .seat.to-act .countdown:not(.time-bank):not(.waiting)").wait_for(state="visible")
    run_clock_until(lambda: Hand.objects.filter(table=table, time_bank_started_at__isnull=False).exists())
    bank = ben.locator("#felt .seat.to-act .countdown.time-bank")
    bank.wait_for(state="visible")
    assert "Time bank" in bank.inner_text() and 1 <= int(bank.locator(".countdown-seconds").inner_text()) <= 4
    screenshots_at_both_widths(ben, "time-bank")
    run_clock_until(lambda: HandEvent.objects.filter(hand__table=table, type="timed_out").exists())
    ben.wait_for_selector("#hand-log >> text=bank_ann ran out of time")
    assert Seat.objects.get(table=table, number=1).time_bank_ms == 0


def test_a_chat_message_reaches_the_other_player_escaped_and_a_spectator_only_reads(open_tab, make_table):
    table = make_table(name="Chat PL")
    alice, bob, spectator = open_tab(), open_tab(PHONE), open_tab()
    sign_up(alice, "chat_alice")
    sign_up(bob, "chat_bob")
    for page in (alice, bob, spectator):
        open_table(page, table)
    alice.fill("#chat-text", "<img src=x onerror=alert(1)> see https://example.test")
    alice.press("#chat-text", "Enter")
    line = bob.locator("#chat-lines .chat-line", has_text="see https://example.test")
    line.wait_for()
    assert line.locator(".chat-text").inner_text() == "<img src=x onerror=alert(1)> see https://example.test"
    assert bob.locator("#chat-lines img, #chat-lines a").count() == 0  # text, not HTML or links
    assert alice.input_value("#chat-text") == ""  # sent: the box is empty again
    assert alice.locator("#chat-lines .mute-form").count() == 0  # nobody mutes themselves
    assert spectator.locator("#chat-form").count() == 0 and "Log in to chat" in spectator.inner_text("#chat")
    spectator.locator("#chat-lines .chat-line", has_text="example.test").wait_for()
    # Bob mutes alice: her next line does not reach him, and the list shows whom he muted.
    bob.click("#chat-lines .mute-form button")
    bob.wait_for_selector("#chat-mutes >> text=chat_alice")
    alice.fill("#chat-text", "second line")
    alice.press("#chat-text", "Enter")
    spectator.locator("#chat-lines .chat-line", has_text="second line").wait_for()
    catch_up(bob, spectator)
    assert bob.locator("#chat-lines .chat-line", has_text="chat_alice").count() == 0
    # Dealer lines, switchable: a hand starts.
    take_seat(alice, 1, 200)
    take_seat(bob, 2, 200)
    in_thread(services.start_hand_if_due, table_id=table.pk, deck=deck_from(SHOWDOWN_DECK))
    dealer = spectator.locator("#chat-lines .chat-dealer", has_text="Hand #1 starts.")
    dealer.wait_for()
    spectator.uncheck("#chat-dealer-lines")
    assert dealer.is_hidden()
    screenshots_at_both_widths(alice, "chat")


def test_the_turn_cue_and_keyboard_play(open_tab, make_table):
    """The title flashes and focus moves to the controls when the turn comes; F, C, R, P and
    Enter play, never while typing in the chat; a fold when checking is free asks first."""
    table = make_table(name="Keys PL")
    alice, bob = open_tab(), open_tab(PHONE)
    sign_up(alice, "keys_alice")
    sign_up(bob, "keys_bob")
    for page in (alice, bob):
        open_table(page, table)
    take_seat(alice, 1, 200)
    take_seat(bob, 2, 200)
    base_title = alice.title()
    assert "Keys PL" in base_title
    assert "F fold" in alice.inner_text("#keys-help")
    in_thread(services.start_hand_if_due, table_id=table.pk, deck=deck_from(SHOWDOWN_DECK))
    alice.wait_for_selector("#controls[data-sequence]", state="attached")
    alice.wait_for_function("document.title === 'Your turn — Keys PL'")
    assert alice.evaluate("document.activeElement.dataset.act") == "fold"  # focus on the controls
    assert "Your turn" in alice.inner_text("#turn-announcer")
    screenshots_at_both_widths(alice, "turn-cue")
    # Typing "c" in the chat box types it; it does not call.
    sequence = alice.get_attribute("#controls", "data-sequence")
    alice.click("#chat-text")
    alice.keyboard.type("cf")
    assert alice.input_value("#chat-text") == "cf"
    assert alice.get_attribute("#controls", "data-sequence") == sequence
    alice.fill("#chat-text", "")
    # R focuses the amount, P fills the pot, Enter confirms: alice raises to 6.
    alice.locator("#felt").click()
    alice.keyboard.press("r")
    assert alice.evaluate("document.activeElement.name") == "amount"
    alice.locator("#felt").click()
    alice.keyboard.press("p")
    assert alice.input_value("#controls input[name=amount]") == "6"
    alice.keyboard.press("Enter")
    bob.wait_for_selector("#controls >> text=Call 4")
    alice.wait_for_function("title => document.title === title", arg=base_title)  # the cue stops with the turn
    # C calls for bob.
    bob.locator("#felt").click()
    bob.keyboard.press("c")
    bob.wait_for_selector('#controls button[data-act="check"]')  # the flop: bob to check
    assert "keys_bob calls 4" in bob.inner_text("#hand-log")
    # F when checking is free asks first; dismissed, nothing is sent.
    dialogs = []
    bob.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    sequence = bob.get_attribute("#controls", "data-sequence")
    bob.locator("#felt").click()
    bob.keyboard.press("f")
    assert dialogs == ["You could check for free. Fold anyway?"]
    bob.keyboard.press("c")
    bob.wait_for_selector(f'#controls:not([data-sequence="{sequence}"])', state="attached")
    assert "keys_bob checks" in bob.inner_text("#hand-log")


def test_the_waiting_list_offers_the_free_seat(open_tab, make_table):
    table = make_table(name="Full HU", seat_count=2)
    alice, bob, carol = open_tab(), open_tab(), open_tab(PHONE)
    sign_up(alice, "wl_alice")
    sign_up(bob, "wl_bob")
    sign_up(carol, "wl_carol")
    for page, seat in ((alice, 1), (bob, 2)):
        open_table(page, table)
        take_seat(page, seat, 100)
    # Carol joins from the lobby: the table is full, the lobby shows the list's length.
    open_lobby(carol)
    carol.click(f"#lobby-table-{table.pk} button.join-waiting")
    carol.wait_for_url(f"**/tables/{table.pk}/")
    carol.wait_for_function("window.socketOpen === true")
    carol.wait_for_selector("#seat-panel >> text=You are number 1 on the waiting list.")
    screenshots_at_both_widths(carol, "waiting-list")
    alice.goto("/")
    alice.wait_for_selector(f"#lobby-table-{table.pk} >> text=1 waiting")
    # Bob leaves: the seat is offered to carol, who takes it.
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("#seat-panel button.danger")
    carol.wait_for_selector("#seat-panel .seat-offer")
    assert "take it within" in carol.inner_text("#seat-panel .seat-offer")
    screenshots_at_both_widths(carol, "waiting-list-offer")
    take_seat(carol, 2, 100)
    assert WaitingListEntry.objects.filter(table=table).count() == 0


def test_seat_choices_the_big_bet_guard_and_showing_after_an_uncalled_win(open_tab, make_table):
    """Auto top-up and leave-after-this-hand from the seat panel; P then Enter past half the stack
    asks once when that guard is ticked; the winner nobody called shows their cards."""
    table = make_table(name="Choices PL", min_buy_in=10)
    alice, bob = open_tab(), open_tab(PHONE)
    sign_up(alice, "ch_alice")
    sign_up(bob, "ch_bob")
    for page, seat in ((alice, 1), (bob, 2)):
        open_table(page, table)
        take_seat(page, seat, 10 if page is alice else 200)
    alice.check("#seat-panel .seat-options-form input[name=auto_top_up]")  # back to 200 (the default box value)
    run_until(lambda: Seat.objects.get(table=table, number=1).auto_top_up_to == 200)
    alice.click("details.settings summary")  # the preferences are under Settings
    alice.check("#big-bet-confirm-choice")
    in_thread(services.start_hand_if_due, table_id=table.pk, deck=deck_from(SHOWDOWN_DECK))
    alice.wait_for_selector('#controls button[data-act="raise"]')
    dialogs = []
    alice.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    alice.locator("#felt").click()
    alice.keyboard.press("p")  # a pot raise to 6 puts in 5: more than half of the 9 behind
    alice.keyboard.press("Enter")
    assert dialogs == ["That puts in more than half your stack. Send it?"]
    alice.keyboard.press("Enter")  # asked once: this time it goes
    bob.wait_for_selector('#controls button[data-act="fold"]')
    bob.click('#controls button[data-act="fold"]')
    # Alice won uncontested: she may show; the top-up brought her back to 200.
    alice.wait_for_selector("#controls .show-cards-form button")
    alice.wait_for_selector("#seat-panel >> text=Seat 1 · 200 chips")
    alice.click("#controls .show-cards-form button")
    bob.wait_for_selector("#hand-log >> text=ch_alice shows:")
    assert set(cards_on(bob, "#felt .seat[data-seat='1'] [data-card]")) == {"Kd", "Kh", "2c", "4s"}
    screenshots_at_both_widths(bob, "shown-after-uncalled-win")
    # Leave after this hand, between hands: she leaves at once with her chips.
    alice.check("#seat-panel .seat-options-form input[name=leave_after_hand]")
    alice.wait_for_selector("#sit-form")
    assert not Seat.objects.filter(table=table, number=1).exists()


def run_until(predicate, seconds=8):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not predicate():
        time.sleep(0.1)
    assert predicate()
