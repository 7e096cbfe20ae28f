"""What a hand is played with: the variant, the stakes and who sits where.

The table layer builds one ``HandConfig`` per hand (positions come from
``positions.plan_next_hand``, amounts from ``stakes``). It is validated once
here so the state machine can trust it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

# A table seats 2 to 10 players, numbered 1..10 (RULES 1.1); a hand deals in 2 to 10 of them.
MIN_SEATS = 2
MAX_SEATS = 10
MIN_PLAYERS = MIN_SEATS
MAX_PLAYERS = MAX_SEATS
MAX_SEAT_NUMBER = MAX_SEATS


class Variant(StrEnum):
    """The betting structure (RULES 7.1, 7.2)."""

    LIMIT = "limit"
    POT_LIMIT = "pot_limit"


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """A player dealt into the hand.

    ``stack``: the chips in front of the player when the hand starts; only
    these play (table stakes, RULES 3.8).
    ``posts_big_blind``: a new or returning player posting a big blind out
    of position to be dealt in now (RULES 2.7); it is a live bet like the
    big blind's (RULES 2.6).
    """

    seat: int
    stack: int
    posts_big_blind: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class HandConfig:
    """Everything a hand needs besides the deck.

    ``big_blind`` is also the Limit small bet (RULES 2.4) and the Pot Limit
    minimum bet (RULES 3.6); ``big_bet`` is the Limit turn and river bet and
    must be 0 in Pot Limit. ``small_blind_seat`` may be None when no small
    blind is posted this hand. Heads-up, the button posts the small blind
    (RULES 2.3), so ``small_blind_seat`` must equal ``button``.
    ``big_blind_ante``: an ante posted by the big blind, dead money (not
    part of the bet, RULES 8.4); it exists so recorded tournament hands can
    be replayed, and defaults to 0 (the cash tables have none).
    """

    variant: Variant
    small_blind: int
    big_blind: int
    big_bet: int
    seats: tuple[SeatSetup, ...]
    button: int
    small_blind_seat: int | None
    big_blind_seat: int
    big_blind_ante: int = 0

    def __post_init__(self) -> None:
        # Accept "limit"/"pot_limit" and lists so from_dict and callers stay simple.
        object.__setattr__(self, "variant", Variant(self.variant))
        object.__setattr__(self, "seats", tuple(self.seats))
        _check_amounts(self)
        _check_seats(self)

    @property
    def seat_numbers(self) -> tuple[int, ...]:
        """The seats dealt in, in clockwise order (ascending seat numbers)."""
        return tuple(sorted(setup.seat for setup in self.seats))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict; ``HandConfig.from_dict`` reverses it."""
        return {
            "variant": self.variant.value,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "big_bet": self.big_bet,
            "seats": [
                {
                    "seat": setup.seat,
                    "stack": setup.stack,
                    "posts_big_blind": setup.posts_big_blind,
                    "name": setup.name,
                }
                for setup in self.seats
            ],
            "button": self.button,
            "small_blind_seat": self.small_blind_seat,
            "big_blind_seat": self.big_blind_seat,
            "big_blind_ante": self.big_blind_ante,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandConfig:
        """Rebuild a config from ``to_dict`` output (validated again)."""
        return cls(
            variant=Variant(data["variant"]),
            small_blind=data["small_blind"],
            big_blind=data["big_blind"],
            big_bet=data["big_bet"],
            seats=tuple(SeatSetup(**seat) for seat in data["seats"]),
            button=data["button"],
            small_blind_seat=data["small_blind_seat"],
            big_blind_seat=data["big_blind_seat"],
            big_blind_ante=data.get("big_blind_ante", 0),
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_stakes(variant: Variant, small_blind: int, big_blind: int, big_bet: int, big_blind_ante: int = 0) -> None:
    """Raise ValueError unless these amounts make a game (RULES 2.4, 2.5, 7.1, 7.2); the
    table's configuration is checked with the same rules as each hand's."""
    amounts = {"small_blind": small_blind, "big_blind": big_blind, "big_bet": big_bet, "big_blind_ante": big_blind_ante}
    for label, amount in amounts.items():
        if not _is_int(amount) or amount < 0:
            raise ValueError(f"{label} must be a whole number of chips >= 0; got {amount!r}.")
    if big_blind < 1:
        raise ValueError("The big blind must be at least 1 chip.")
    if small_blind > big_blind:
        raise ValueError("The small blind cannot be larger than the big blind.")
    if variant is Variant.POT_LIMIT:
        if big_blind != 2 * small_blind:
            raise ValueError("Pot Limit: the big blind must be twice the small blind (RULES 2.5).")
        if big_bet != 0:
            raise ValueError("Pot Limit has no big bet: pass big_bet=0.")
    elif big_bet < big_blind:
        raise ValueError("Limit: the big bet cannot be smaller than the small bet (the big blind).")


def _check_amounts(config: HandConfig) -> None:
    check_stakes(config.variant, config.small_blind, config.big_blind, config.big_bet, config.big_blind_ante)


def _check_seats(config: HandConfig) -> None:
    seats = config.seats
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise ValueError(f"A hand needs {MIN_PLAYERS} to {MAX_PLAYERS} players; got {len(seats)}.")
    for setup in seats:
        if not isinstance(setup, SeatSetup):
            raise ValueError(f"seats must hold SeatSetup objects; got {setup!r}.")
    numbers = [setup.seat for setup in seats]
    for setup in seats:
        if not _is_int(setup.seat) or not 1 <= setup.seat <= MAX_SEAT_NUMBER:
            raise ValueError(f"Seats are numbered 1 to {MAX_SEAT_NUMBER}; got {setup.seat!r}.")
        if not _is_int(setup.stack) or setup.stack < 1:
            raise ValueError(f"Seat {setup.seat} needs a stack of at least 1 chip to be dealt in.")
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"Each seat may be dealt in only once; got {sorted(numbers)}.")
    if not _is_int(config.button) or not 1 <= config.button <= MAX_SEAT_NUMBER:
        raise ValueError(f"The button must be a seat number; got {config.button!r}.")
    if config.big_blind_seat not in numbers:
        raise ValueError(f"The big blind seat {config.big_blind_seat!r} is not dealt in.")
    if config.small_blind_seat is not None:
        if config.small_blind_seat not in numbers:
            raise ValueError(f"The small blind seat {config.small_blind_seat!r} is not dealt in.")
        if config.small_blind_seat == config.big_blind_seat:
            raise ValueError("One seat cannot post both blinds.")
    if len(seats) == MIN_PLAYERS and config.small_blind_seat != config.button:
        raise ValueError("Heads-up the button posts the small blind (RULES 2.3).")
    for setup in seats:
        if setup.posts_big_blind and setup.seat in (config.big_blind_seat, config.small_blind_seat):
            raise ValueError(f"Seat {setup.seat} already posts a blind this hand.")
