"""What a table service raises when it refuses a request (nothing is changed)."""

from django.utils.translation import gettext

from cashier.errors import CashierError
from config.numbers import chips
from tables.engine.errors import IllegalAction


class TableError(Exception):
    """A seat, buy-in or action request the table refused, with a message for the player."""


class RepeatedRequest(TableError):
    """The form's request was already made (double click, replayed frame): nothing moves again."""


class StaleAction(TableError):
    """The request was made against an older state of the hand (double click, stale form, late frame)."""


# Everything a view or consumer shows to the player as a plain refusal.
REFUSALS = (TableError, CashierError, IllegalAction)


def refusal_text(refusal: BaseException) -> str:
    """What the player reads, in the active language.

    The engine's refusals carry their English template and parameters (the engine has no
    Django): the template is translated here and filled, numbers written as the language
    writes them. The table's and the cashier's refusals are written in the active language
    when raised, so their text is already the player's."""
    if isinstance(refusal, IllegalAction):
        params = {key: chips(value) if isinstance(value, int) else value for key, value in refusal.params.items()}
        return gettext(refusal.template).format(**params)
    return str(refusal)
