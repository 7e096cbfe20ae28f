"""Tables, seats and hands as the database keeps them, one module per aggregate.

The rules live in tables.engine; these models store what the engine needs
(a table's configuration, who sits where, each hand's deck and event log).
"""

from tables.models.chat import ChatMessage, ChatMute
from tables.models.clock import ClockPolicy, TimeoutRecord
from tables.models.hands import DealContribution, Hand, HandEvent, HandPlayer
from tables.models.installation import INSTALLATION_NUMBERS, Installation, _new_installation_number
from tables.models.seats import Seat, SeatSession
from tables.models.table import VARIANT_LABELS, Table
from tables.models.waiting_list import WaitingListEntry

__all__ = [
    "INSTALLATION_NUMBERS",
    "VARIANT_LABELS",
    "ChatMessage",
    "ChatMute",
    "ClockPolicy",
    "DealContribution",
    "Hand",
    "HandEvent",
    "HandPlayer",
    "Installation",
    "Seat",
    "SeatSession",
    "Table",
    "TimeoutRecord",
    "WaitingListEntry",
    "_new_installation_number",  # named by migration 0003
]
