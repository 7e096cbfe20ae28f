"""The one error the engine raises for a player's mistake, and how its words are marked."""

from __future__ import annotations


def _(text: str) -> str:
    """Mark a message for players for the translation catalogue (``makemessages`` finds ``_``).

    The engine stays free of Django: it keeps the English template and its parameters, and
    the table layer translates the template at the edge (``IllegalAction.template``)."""
    return text


class IllegalAction(ValueError):
    """An action the rules do not allow right now.

    ``template`` is the message for the player with ``{name}`` slots ("It is not seat
    {seat}'s turn"), ``params`` fills them; ``str()`` of the error is the English text. The
    engine validates an action completely before changing anything, so after this error the
    hand is exactly as it was before the call.
    """

    def __init__(self, template: str, **params: int | str) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params
