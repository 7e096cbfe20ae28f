"""The only write path for tables, seats and hands: views, consumers and tasks call these."""

from .clock import expire_turn, run_clock
from .closing import close_table, reopen_table
from .errors import REFUSALS, RepeatedRequest, StaleAction, TableError
from .play import act, start_hand_if_due
from .seating import leave, sit_in, sit_out, take_seat, top_up

__all__ = [
    "REFUSALS",
    "RepeatedRequest",
    "StaleAction",
    "TableError",
    "act",
    "close_table",
    "expire_turn",
    "leave",
    "reopen_table",
    "run_clock",
    "sit_in",
    "sit_out",
    "start_hand_if_due",
    "take_seat",
    "top_up",
]
