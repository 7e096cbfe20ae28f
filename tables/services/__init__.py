"""The only write path for tables, seats and hands: views, consumers and tasks call these.

Each function is one transaction under the table's row lock, written as a check step
(parse, authorise, lock, check the sequence) and a do step (apply and record), and
announces the change on commit (``changes``) for the screens to update.
"""

from .clock import expire_turn, run_clock
from .closing import close_table, reopen_table
from .contributions import contribute
from .dealing import start_hand_if_due
from .errors import REFUSALS, RepeatedRequest, StaleAction, TableError
from .seating import leave, sit_in, sit_out, take_seat, top_up
from .turns import act
from .waiting_list import join_waiting_list, leave_waiting_list

__all__ = [
    "REFUSALS",
    "RepeatedRequest",
    "StaleAction",
    "TableError",
    "act",
    "close_table",
    "contribute",
    "expire_turn",
    "join_waiting_list",
    "leave",
    "leave_waiting_list",
    "reopen_table",
    "run_clock",
    "sit_in",
    "sit_out",
    "start_hand_if_due",
    "take_seat",
    "top_up",
]
