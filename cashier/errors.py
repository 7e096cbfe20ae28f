"""Errors the cashier raises: each carries a message fit to show the player."""


class CashierError(Exception):
    """A chip movement was refused; nothing was changed."""


class InvalidAmount(CashierError):
    pass


class InsufficientChips(CashierError):
    pass


class IdempotencyConflict(CashierError):
    pass


class ReloadNotAllowed(CashierError):
    pass
