"""The lines of a tournament hand's PokerStars text that a cash hand's lacks (README.md beside this file).

PokerStars writes a tournament hand as a cash hand, but for three things:

- the header names the tournament, its buy-in and fee, and the level with its stakes:
  ``PokerStars Hand #N: Tournament #T, 100+10 Omaha Pot Limit - Level III (25/50) - <time>``
  (play chips, as PokerStars writes play-money tournaments; "Freeroll" when both are 0; the
  level in Roman numerals, its stakes as a cash hand's: Limit "small bet/big bet");
- the table is ``'T n'`` (the tournament's number, then the table's), with no "(Play Money)";
- after the pots are collected, who finished the tournament in the hand, the worst place
  first: ``X finished the tournament in 3rd place`` (``and received 60.`` with a prize), then
  ``Y wins the tournament and receives 100 - congratulations!`` (RULES 8.6, 8.10).

The seat lines are the tournament chip stacks; the big blind ante (RULES 8.4) is the cash
hands' ``posts the ante`` line.
"""

from __future__ import annotations

from .numbering import exported_tournament_number
from .tournament_facts import TournamentHand

ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
         (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))  # fmt: skip


def roman(number: int) -> str:
    """3 -> "III", 14 -> "XIV": PokerStars' level numbers."""
    if number < 1:
        raise ValueError(f"A level from 1; got {number}.")
    digits = []
    for value, letters in ROMAN:
        count, number = divmod(number, value)
        digits.append(letters * count)
    return "".join(digits)


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd..."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def buy_in_label(facts: TournamentHand) -> str:
    return "Freeroll" if not facts.buy_in and not facts.fee else f"{facts.buy_in}+{facts.fee}"


def tournament_header(
    hand_number: int, installation: int, facts: TournamentHand, game: str, stakes: str, when: str, table_line: str
) -> list[str]:
    """The first two lines; ``table_line``: the cash table line's "N-max ... Seat #B is the button" part."""
    tournament = exported_tournament_number(installation, facts.tournament_id)
    return [
        f"PokerStars Hand #{hand_number}: Tournament #{tournament}, {buy_in_label(facts)} {game}"
        f" - Level {roman(facts.level)} ({stakes}) - {when}",
        f"Table '{tournament} {facts.table_number}' {table_line}",
    ]


def finish_lines(facts: TournamentHand, names: dict[int, str]) -> list[str]:
    lines = []
    for finish in facts.finishes:
        name = names[finish.seat]
        if finish.place == 1:
            lines.append(f"{name} wins the tournament and receives {finish.prize} - congratulations!")
        elif finish.prize:
            lines.append(
                f"{name} finished the tournament in {ordinal(finish.place)} place and received {finish.prize}."
            )
        else:
            lines.append(f"{name} finished the tournament in {ordinal(finish.place)} place")
    return lines
