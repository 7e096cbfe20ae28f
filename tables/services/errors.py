"""What a table service raises when it refuses a request (nothing is changed)."""

from cashier.errors import CashierError
from tables.engine.errors import IllegalAction


class TableError(Exception):
    """A seat, buy-in or action request the table refused, with a message for the player."""


class RepeatedRequest(TableError):
    """The form's request was already made (double click, replayed frame): nothing moves again."""


class StaleAction(TableError):
    """The request was made against an older state of the hand (double click, stale form, late frame)."""


# Everything a view or consumer shows to the player as a plain refusal.
REFUSALS = (TableError, CashierError, IllegalAction)
