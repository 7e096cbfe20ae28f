"""A small reader of PokerStars cash-game and tournament text, reading a hand as a tracker does.

Every line must be one PokerStars writes (``LINE_FORMS``), in its section; the reader
then follows the chips: what each player put in per street (posts, calls, bets,
"raises X to Y", minus an uncalled bet returned) and what each collected, so a test
can check that the pots add up and the nets sum to zero with no rake.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

CARD = r"[2-9TJQKA][cdhs]"
CARDS = rf"\[{CARD}(?: {CARD})*\]"
NAME = r"(?P<name>.+?)"
AMOUNT = r"(\d+)"
ALL_IN = r"(?P<all_in> and is all-in)?"
HAND_WORDS = (
    r"(?:high card \w+|a pair of \w+|two pair, \w+ and \w+|three of a kind, \w+|a straight, \w+ to \w+"
    r"|a flush, \w+ high|a full house, \w+ full of \w+|four of a kind, \w+|a straight flush, \w+ to \w+"
    r"|a Royal Flush)"
)
POT_NAME = r"(?P<pot>pot|main pot|side pot(?:-\d+)?)"

HEADER = re.compile(
    r"PokerStars Hand #(?P<number>\d+):  Omaha (?P<limit>Pot Limit|Limit) \((?P<small>\d+)/(?P<big>\d+)\) - "
    # Eastern time, alone or in brackets after the player's own zone, is what trackers read.
    r"(?:\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d [A-Z]{2,5} \[(?P<et>\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d) ET\]"
    r"|(?P<et_alone>\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d) ET)"
)
TABLE = re.compile(r"Table '(?P<table>.+)' (?P<max>\d+)-max \(Play Money\) Seat #(?P<button>\d+) is the button")
# A tournament hand (tables/history/pokerstars_tournament.py): the tournament, its buy-in and fee in play
# chips ("Freeroll" for none), the level in Roman numerals and its stakes; the table is the tournament's
# number then the table's, with no "(Play Money)".
TOURNAMENT_HEADER = re.compile(
    r"PokerStars Hand #(?P<number>\d+): Tournament #(?P<tournament>\d+), (?P<buy_in>Freeroll|\d+\+\d+) "
    r"Omaha (?P<limit>Pot Limit|Limit) - Level (?P<level>[IVXLCDM]+) \((?P<small>\d+)/(?P<big>\d+)\) - "
    r"\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d [A-Z]{2,5} \[(?P<et>\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d) ET\]"
)
TOURNAMENT_TABLE = re.compile(
    r"Table '(?P<tournament>\d+) (?P<table>\d+)' (?P<max>\d+)-max Seat #(?P<button>\d+) is the button"
)
ORDINAL = r"(?P<place>\d+)(?:st|nd|rd|th)"
FINISHED = re.compile(rf"{NAME} finished the tournament in {ORDINAL} place(?: and received (?P<prize>\d+)\.)?")
# The room's own last line (docs/fair-dealing.md), after everything a tracker reads; fpdb passes over it.
FAIR_DEAL = re.compile(r"Fair deal: Merkle root [0-9a-f]{64}, server seed commitment [0-9a-f]{64}")
WINS = re.compile(rf"{NAME} wins the tournament and receives (?P<prize>\d+) - congratulations!")
SEAT = re.compile(rf"Seat (?P<seat>\d+): {NAME} \((?P<stack>\d+) in chips\)")
POST = re.compile(rf"{NAME}: posts (?P<blind>small blind|big blind|the ante) (?P<amount>\d+){ALL_IN}")
ACTION = re.compile(
    rf"{NAME}: (?:(?P<folds>folds)|(?P<checks>checks)|calls (?P<call>\d+)|bets (?P<bet>\d+)"
    rf"|raises (?P<raise_by>\d+) to (?P<raise_to>\d+)){ALL_IN}"
)
STREET = re.compile(
    rf"\*\*\* (?:(?P<flop>FLOP) \*\*\* (?P<flop_cards>\[{CARD} {CARD} {CARD}\])"
    rf"|(?P<later>TURN|RIVER) \*\*\* (?P<before>{CARDS}) \[(?P<card>{CARD})\])"
)
DEALT = re.compile(rf"Dealt to {NAME} (?P<cards>\[{CARD} {CARD} {CARD} {CARD}\])")
TIMED_OUT = re.compile(rf"{NAME} has timed out")
UNCALLED = re.compile(rf"Uncalled bet \((?P<amount>\d+)\) returned to {NAME}")
SHOWS = re.compile(rf"{NAME}: shows (?P<cards>\[{CARD} {CARD} {CARD} {CARD}\]) \((?P<words>{HAND_WORDS})\)")
MUCKS = re.compile(rf"{NAME}: mucks hand")
DOESNT_SHOW = re.compile(rf"{NAME}: doesn't show hand")
COLLECTED = re.compile(rf"{NAME} collected (?P<amount>\d+) from {POT_NAME}")
TOTAL = re.compile(r"Total pot (?P<total>\d+)(?P<pots>(?: (?:Main pot|Side pot(?:-\d+)?) \d+\.)*) \| Rake 0")
POT_PART = re.compile(r" (Main pot|Side pot(?:-\d+)?) (\d+)\.")
BOARD = re.compile(rf"Board (?P<board>{CARDS})")
POSITION = r"(?P<position>(?: \((?:button|small blind|big blind)\))*)"
SUMMARY_SEAT = re.compile(
    rf"Seat (?P<seat>\d+): {NAME}{POSITION} (?:"
    r"folded (?P<folded>before Flop|on the Flop|on the Turn|on the River)(?P<didnt> \(didn't bet\))?"
    rf"|showed (?P<showed>{CARDS}) and (?:won \((?P<won>\d+)\)|lost) with (?P<words>{HAND_WORDS})"
    r"|collected \((?P<collected>\d+)\)"
    rf"|mucked(?: (?P<mucked>{CARDS}))?)"
)


class NotPokerStars(AssertionError):
    """A line a tracker would not read, or chips that do not add up."""


@dataclass
class TrackedHand:
    number: int
    limit: str
    stakes: tuple[int, int]
    et_time: str
    button: int
    seats: dict[str, int] = field(default_factory=dict)  # name -> seat
    stacks: dict[str, int] = field(default_factory=dict)
    put_in: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    collected: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    all_in: set[str] = field(default_factory=set)
    timed_out: list[str] = field(default_factory=list)
    folded: set[str] = field(default_factory=set)
    shown: dict[str, str] = field(default_factory=dict)  # name -> cards
    dealt: dict[str, str] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    total_pot: int = 0
    pots: list[int] = field(default_factory=list)
    summary_won: dict[str, int] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    # Tournament hands: the tournament's number, "100+10", the level ("III"), and who finished the
    # tournament in the hand as (name, place, prize), in the order written.
    tournament: int | None = None
    buy_in: str | None = None
    level: str | None = None
    finishes: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def nets(self) -> dict[str, int]:
        return {name: self.collected[name] - self.put_in[name] for name in self.seats}


def read_hands(text: str) -> list[TrackedHand]:
    """Every hand of a file: hands are separated by blank lines, as PokerStars writes them."""
    chunks = [chunk for chunk in re.split(r"\n\n\n", text.strip("\n")) if chunk]
    return [read_hand(chunk) for chunk in chunks]


def read_hand(text: str) -> TrackedHand:
    lines = text.strip("\n").split("\n")
    header, table = HEADER.fullmatch(lines[0]), TABLE.fullmatch(lines[1])
    tournament = TOURNAMENT_HEADER.fullmatch(lines[0]), TOURNAMENT_TABLE.fullmatch(lines[1])
    if all(tournament):
        header, table = tournament
        if header["tournament"] != table["tournament"]:
            raise NotPokerStars(f"the table is not the tournament's: {lines[:2]}")
    elif not header or not table:
        raise NotPokerStars(f"not a PokerStars cash-game or tournament header: {lines[:2]}")
    hand = TrackedHand(
        number=int(header["number"]),
        limit=header["limit"],
        stakes=(int(header["small"]), int(header["big"])),
        et_time=header["et"] or header.groupdict().get("et_alone"),
        button=int(table["button"]),
        lines=lines,
    )
    if all(tournament):
        hand.tournament, hand.buy_in, hand.level = int(header["tournament"]), header["buy_in"], header["level"]
    section = "seats"
    checked_all_in: set[str] = set()
    street_total: dict[str, int] = defaultdict(int)  # what each put in this street, as "raises to" counts
    # Pre-flop the bet to raise is the big blind (the header's small bet in Limit), even when it is short.
    to_raise = hand.stakes[0] if hand.limit == "Limit" else hand.stakes[1]
    for line in lines[2:]:
        if section == "seats" and (seat := SEAT.fullmatch(line)):
            hand.seats[seat["name"]] = int(seat["seat"])
            hand.stacks[seat["name"]] = int(seat["stack"])
            continue
        if section in ("seats", "posts") and (post := POST.fullmatch(line)):
            section = "posts"
            _known(hand, post["name"], line)
            amount = int(post["amount"])
            if post["blind"] == "the ante":
                hand.put_in[post["name"]] += amount  # dead: not part of the street's bet
            else:
                street_total[post["name"]] += amount
                hand.put_in[post["name"]] += amount
            if post["all_in"]:
                hand.all_in.add(post["name"])
            continue
        if line == "*** HOLE CARDS ***" and section in ("seats", "posts"):
            section = "betting"
            continue
        if section == "betting" and (dealt := DEALT.fullmatch(line)):
            hand.dealt[dealt["name"]] = dealt["cards"]
            continue
        if section == "betting" and (action := ACTION.fullmatch(line)):
            name = action["name"]
            _known(hand, name, line)
            if name in hand.folded:
                raise NotPokerStars(f"{name} acts after folding: {line}")
            if name in hand.all_in:
                if not action["checks"]:
                    raise NotPokerStars(f"{name} bets after going all-in: {line}")
                checked_all_in.add(name)  # only a protected all-in's earlier checks (see check_chips_add_up)
            if action["folds"]:
                hand.folded.add(name)
            elif action["call"]:
                street_total[name] += int(action["call"])
                hand.put_in[name] += int(action["call"])
            elif action["bet"]:
                street_total[name] += int(action["bet"])
                hand.put_in[name] += int(action["bet"])
            elif action["raise_to"]:
                added = int(action["raise_to"]) - street_total[name]
                if int(action["raise_by"]) != int(action["raise_to"]) - max(to_raise, *street_total.values()):
                    raise NotPokerStars(f"'raises X to Y': X is not Y less the bet it raises: {line}")
                street_total[name] = int(action["raise_to"])
                hand.put_in[name] += added
            if action["all_in"]:
                hand.all_in.add(name)
            continue
        if section == "betting" and (timed_out := TIMED_OUT.fullmatch(line)):
            _known(hand, timed_out["name"], line)
            hand.timed_out.append(timed_out["name"])
            continue
        if section in ("betting", "showdown") and (street := STREET.fullmatch(line)):
            cards = street["flop_cards"] or street["card"]
            if street["later"] and street["before"] != "[" + " ".join(hand.board) + "]":
                raise NotPokerStars(f"the board so far is not {hand.board}: {line}")
            hand.board += cards.strip("[]").split()
            street_total, to_raise = defaultdict(int), 0
            section = "betting"
            continue
        if section == "betting" and (uncalled := UNCALLED.fullmatch(line)):
            _known(hand, uncalled["name"], line)
            hand.put_in[uncalled["name"]] -= int(uncalled["amount"])
            continue
        if line == "*** SHOW DOWN ***" and section == "betting":
            section = "showdown"
            continue
        if section == "showdown" and (shows := SHOWS.fullmatch(line)):
            hand.shown[shows["name"]] = shows["cards"]
            continue
        if section == "showdown" and (MUCKS.fullmatch(line)):
            continue
        if section in ("betting", "showdown") and (collected := COLLECTED.fullmatch(line)):
            _known(hand, collected["name"], line)
            hand.collected[collected["name"]] += int(collected["amount"])
            continue
        if (
            hand.tournament
            and section in ("betting", "showdown")
            and (finish := FINISHED.fullmatch(line) or WINS.fullmatch(line))
        ):
            _known(hand, finish["name"], line)
            place = int(finish.groupdict().get("place") or 1)
            hand.finishes.append((finish["name"], place, int(finish["prize"] or 0)))
            continue
        if section == "betting" and (doesnt_show := DOESNT_SHOW.fullmatch(line)):
            if not hand.collected.get(doesnt_show["name"]):
                raise NotPokerStars(f"only a winner without a showdown does not show: {line}")
            continue
        if line == "*** SUMMARY ***" and section in ("betting", "showdown"):
            section = "summary"
            continue
        if section == "summary" and (total := TOTAL.fullmatch(line)):
            hand.total_pot = int(total["total"])
            hand.pots = [int(amount) for _, amount in POT_PART.findall(total["pots"])] or [hand.total_pot]
            continue
        if section == "summary" and (board := BOARD.fullmatch(line)):
            if board["board"] != "[" + " ".join(hand.board) + "]":
                raise NotPokerStars(f"the summary's board is not the board dealt: {line}")
            continue
        if section == "summary" and (seat_line := SUMMARY_SEAT.fullmatch(line)):
            name = seat_line["name"]
            if hand.seats.get(name) != int(seat_line["seat"]):
                raise NotPokerStars(f"the summary seats {name} elsewhere: {line}")
            hand.summary_won[name] = int(seat_line["won"] or seat_line["collected"] or 0)
            continue
        if section == "summary" and line is lines[-1] and FAIR_DEAL.fullmatch(line):
            continue
        raise NotPokerStars(f"a line no tracker reads here ({section}): {line!r}")
    if section != "summary":
        raise NotPokerStars("the hand has no summary")
    if not checked_all_in <= set(hand.timed_out):
        # The room marks a protected all-in (RULES 6.2) on the player's last line that put chips in;
        # their checks after it stay as they were. Any other all-in player does not act again.
        raise NotPokerStars(f"{checked_all_in - set(hand.timed_out)} check after going all-in")
    return hand


def _known(hand: TrackedHand, name: str, line: str) -> None:
    if name not in hand.seats:
        raise NotPokerStars(f"{name} has no seat: {line}")


def check_chips_add_up(hand: TrackedHand) -> None:
    """What a tracker checks before filing a hand: pots, collections and the summary agree, nobody
    puts in more than they had, and the nets sum to zero (rake 0)."""
    put_in = sum(hand.put_in.values())
    collected = sum(hand.collected.values())
    if not put_in == collected == hand.total_pot == sum(hand.pots):
        raise NotPokerStars(
            f"put in {put_in}, collected {collected}, total pot {hand.total_pot}, pots {hand.pots}: {hand.number}"
        )
    if sum(hand.nets.values()) != 0:
        raise NotPokerStars(f"nets do not sum to zero: {hand.nets}")
    for name, amount in hand.put_in.items():
        if amount > hand.stacks[name]:
            raise NotPokerStars(f"{name} put in {amount} from a stack of {hand.stacks[name]}")
        if amount == hand.stacks[name] and amount and name not in hand.all_in:
            raise NotPokerStars(f"{name} put in the whole stack and is not marked all-in")
    for name in hand.seats:
        if hand.summary_won.get(name, 0) != hand.collected[name]:
            raise NotPokerStars(f"{name} collected {hand.collected[name]}, the summary says otherwise")
