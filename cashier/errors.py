"""Errors the cashier raises: each carries a message fit to show the player."""


class CashierError(Exception):
    """A chip movement was refused; nothing was changed."""


class InvalidAmount(CashierError):
    pass


class InsufficientChips(CashierError):
    pass


class IdempotencyConflict(CashierError):
    pass


class InvalidRequest(CashierError):
    """A request id or reference the server did not make."""


class RequestAlreadyUsed(CashierError):
    """The request already paid for a chip movement: nothing moves again."""


class ReloadNotAllowed(CashierError):
    pass


class AccountClosed(CashierError):
    """The bankroll belongs to a closed account: no chip comes into it again."""
