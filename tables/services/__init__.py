"""The only write path for tables, seats and hands: views, consumers and tasks call these.

Each change of a table is one transaction under the table's row lock (``locking``) and is
announced on commit (``changes``) for the screens to update. Three shapes:

- check step and do step, for the hand itself: ``turns`` (``check_action`` a click,
  ``check_timeout`` the clock: parse, authorise, lock, check the sequence; ``do_action``:
  apply and record) and ``dealing`` (``check_hand_due``, ``do_deal``); the clock's
  ``expire_turn`` is ``check_timeout`` and ``do_action`` again;
- one function per request, checking and then changing inside its one locked transaction:
  ``seating``, ``closing``, ``waiting_list``, ``seat_options``, ``showing``, ``contributions``,
  ``presence.player_connected``; ``clock.run_clock`` is no transaction itself, it calls the
  others per table;
- ``presence.player_disconnected``: one unlocked update of the seat's disconnect time, not
  announced (the others see it with the table's next change);
- ``chat``: a message or a mute is a transaction of its own without the table's lock (it
  changes no table state), announced on commit to the chat's listeners.

The rest are the steps these share, called inside their transactions: ``settlement``,
``occupancy``, ``time_bank``, ``event_log``, ``held_engines``, ``errors``.
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
