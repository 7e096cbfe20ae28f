"""Where each seat sits around the oval, turned so the viewer's own seat is at the bottom.

Seats are spread by equal distance along the rail rather than by equal
angle: on a long oval equal angles bunch seats at its narrow ends, which is
where ten seat boxes would overlap. The distance depends on the oval's
proportions, so there are two sets of positions: the wide oval of a desktop
and the tall one of a phone (table.css picks one by screen width).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Oval:
    aspect: float  # width / height of the felt, as table.css draws it
    seat_radius: tuple[float, float]  # percent of the felt's width and height
    bet_radius: tuple[float, float]
    button_radius: tuple[float, float]


WIDE = Oval(aspect=2.0, seat_radius=(44.0, 41.0), bet_radius=(30.0, 24.0), button_radius=(27.0, 22.0))
TALL = Oval(aspect=0.75, seat_radius=(37.0, 44.0), bet_radius=(19.0, 28.0), button_radius=(15.0, 25.0))
# The dealer button sits a little clockwise of its seat's bet, so the two never cover each other.
_BUTTON_TURN = math.radians(20)
_STEPS = 720


@dataclass(frozen=True)
class Spot:
    x: float
    y: float
    bet_x: float
    bet_y: float
    button_x: float
    button_y: float


@dataclass(frozen=True)
class SeatSpot:
    wide: Spot
    tall: Spot


def seat_spots(seat_count: int, bottom_seat: int) -> dict[int, SeatSpot]:
    """Seat number -> spot. Seats go clockwise (RULES 1.1); ``bottom_seat`` is at six o'clock."""
    wide, tall = _angles(WIDE, seat_count), _angles(TALL, seat_count)
    spots = {}
    for number in range(1, seat_count + 1):
        k = (number - bottom_seat) % seat_count
        spots[number] = SeatSpot(_spot(WIDE, wide[k]), _spot(TALL, tall[k]))
    return spots


def _angles(oval: Oval, count: int) -> list[float]:
    """``count`` angles from six o'clock, clockwise on screen, equally far apart along the rail."""
    width, height = oval.seat_radius[0] * oval.aspect, oval.seat_radius[1]
    start = math.pi / 2  # screen y grows downward: a growing angle turns clockwise from the bottom
    lengths = [0.0]
    for step in range(1, _STEPS + 1):
        angle = start + 2 * math.pi * step / _STEPS
        lengths.append(lengths[-1] + math.hypot(width * math.sin(angle), height * math.cos(angle)))
    angles, step = [], 1
    for k in range(count):
        target = lengths[-1] * k / count
        while lengths[step] < target:
            step += 1
        # Between the two samples around the target, in proportion.
        fraction = (target - lengths[step - 1]) / (lengths[step] - lengths[step - 1])
        angles.append(start + 2 * math.pi * (step - 1 + fraction) / _STEPS)
    return angles


def _spot(oval: Oval, angle: float) -> Spot:
    seat, bet = _point(angle, oval.seat_radius), _point(angle, oval.bet_radius)
    return Spot(*seat, *bet, *_point(angle + _BUTTON_TURN, oval.button_radius))


def _point(angle: float, radius: tuple[float, float]) -> tuple[float, float]:
    return round(50 + radius[0] * math.cos(angle), 2), round(50 + radius[1] * math.sin(angle), 2)
