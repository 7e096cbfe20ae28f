"""Golden hands: PokerStars Omaha hand histories written line by line in PokerStars' own format (our own
fixtures in golden/), and the same hands played here with the same cards and actions. The room's export
must give the same lines, but for the names, the hand number, the time and the table's name.

The Pot Limit side pot is played through the room's services (a table, seats, the clock's timeout rule
is the engine's); the others on the engine, exported as a player of the hand sees them.
"""

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tables.engine import Hand, Variant
from tables.engine.projection import visible_events
from tables.history.access import HandRecord
from tables.history.pokerstars import pokerstars_text
from tables.models import Hand as HandRow
from tables.models import Table
from tests.engine.support import make_config, play, stacked_deck
from tests.support.history import arranged_deck, start
from tests.support.pokerstars import check_chips_add_up, read_hand
from tests.support.tables import act, sit

GOLDEN = Path(__file__).parent / "golden"
NAMES = {1: "ann", 2: "bob", 4: "dan", 5: "eve"}
SEAT_LINE = re.compile(r"^Seat (\d+): (.+?) \(\d+ in chips\)$", re.M)


def normalised(text: str) -> list[str]:
    """The lines with each player named by seat ("P3"), and the number, time and table name left out;
    without the room's own "Fair deal" line after the summary, which has no PokerStars equivalent
    (tables/history/README.md) and is checked by tests/history/test_fair_deal.py."""
    names = {name: f"P{seat}" for seat, name in SEAT_LINE.findall(text)}
    lines = [line for line in text.strip("\n").split("\n") if not line.startswith("Fair deal: ")]
    lines[0] = re.sub(r"#\d+:", "#N:", lines[0].rsplit(" - ", 1)[0])
    lines[1] = re.sub(r"^Table '.+?' ", "Table 'T' ", lines[1])
    by_length = sorted(names, key=len, reverse=True)
    who = re.compile("|".join(re.escape(name) for name in by_length))
    speaker = re.compile(rf"^(?:Seat \d+: |Dealt to |Uncalled bet \(\d+\) returned to )?({who.pattern})(?=[: ]|$)")
    return [speaker.sub(lambda m: m.group(0).replace(m.group(1), names[m.group(1)]), line) for line in lines]


def golden(name: str) -> str:
    return (GOLDEN / name).read_text()


def engine_record(hand: Hand, viewer_seat: int, seat_count: int) -> HandRecord:
    row = HandRow(pk=77, table=Table(name="Here", seat_count=seat_count), started_at=datetime(2026, 1, 2, tzinfo=UTC))
    return HandRecord(row, visible_events(hand.events, viewer_seat), viewer_seat, full_knowledge=False)


def test_the_golden_files_read_as_pokerstars_with_chips_that_add_up():
    for path in sorted(GOLDEN.glob("*.txt")):
        check_chips_add_up(read_hand(path.read_text()))


@pytest.mark.django_db
def test_a_pot_limit_side_pot_played_here_writes_the_golden_lines(client, make_player, make_table):
    """Three-handed, the button all-in on the flop, a side pot bet on the turn: the side pot is paid
    first, then the main pot, and the hand that cannot win is mucked (RULES 4.1, 5.4)."""
    table = make_table(name="Side pot", min_buy_in=40, max_buy_in=200)
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    for player, seat, chips in ((ann, 1, 80), (bob, 2, 200), (cat, 3, 200)):
        sit(table, player, seat, chips)
    hand = start(table, arranged_deck(["8h 8c 7d 6c", "Qc Qd Jc Tc", "As Ad Ks Kd"], "Kh 8d 3c 5s 2h"))
    for player, kind, amount in (
        (ann, "raise", 7), (bob, "call", None), (cat, "call", None),
        (bob, "check", None), (cat, "bet", 21), (ann, "raise", 73), (bob, "call", None), (cat, "call", None),
        (bob, "bet", 50), (cat, "call", None),
        (bob, "check", None), (cat, "check", None),
    ):  # fmt: skip
        act(table, player, kind, amount)
    client.force_login(bob)
    text = client.get(f"/hands/{hand.pk}/export.txt").content.decode()
    assert normalised(text) == normalised(golden("pot_limit_side_pot.txt"))


def test_a_limit_hand_with_a_timed_out_fold_writes_the_golden_lines():
    """Limit 10/20 (blinds 5/10), seat 3 empty: the button runs out of time with nothing in and is
    folded (RULES 6.2); the winner's turn bet is uncalled and returned (RULES 3.9)."""
    config = make_config(
        {1: 400, 2: 400, 4: 400, 5: 400}, variant=Variant.LIMIT, blinds=(5, 10), big_bet=20, button=5, names=NAMES
    )
    hand = Hand(config, stacked_deck(config, {4: "Ac Ah Kc Qd"}, "9s 6h 2d Jc 3h"))
    hand.start()
    play(hand, "4 raise 20", "5 timeout", "1 call", "2 raise 30", "4 call", "1 call")
    play(hand, "1 check", "2 bet 10", "4 raise 20", "1 fold", "2 call")  # flop
    play(hand, "2 check", "4 bet 20", "2 fold")  # turn
    text = pokerstars_text(engine_record(hand, 4, seat_count=6), 123456)
    assert normalised(text) == normalised(golden("limit_timed_out_fold.txt"))


def test_a_heads_up_all_in_before_the_flop_writes_the_golden_lines():
    """Heads-up Pot Limit, raised to the pot four times: the button calls all-in for less, the
    uncalled raise goes back, and the board is run out with both hands turned up (RULES 3.9, 5.4)."""
    config = make_config({1: 150, 2: 200}, button=1, names=NAMES)
    hand = Hand(config, stacked_deck(config, {1: "Ah Kh Qh Jh", 2: "2c 2d 7s 8s"}, "2s 9h Tc 4d 5c"))
    hand.start()
    play(hand, "1 raise 6", "2 raise 18", "1 raise 54", "2 raise 162", "1 call")
    text = pokerstars_text(engine_record(hand, 1, seat_count=2), 123456)
    assert normalised(text) == normalised(golden("heads_up_all_in.txt"))
