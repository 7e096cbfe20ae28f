"""The one error the engine raises for a player's mistake."""


class IllegalAction(ValueError):
    """An action the rules do not allow right now.

    The message is written for the player ("It is not seat 3's turn") so the
    table layer can show it as is. The engine validates an action completely
    before changing anything, so after this error the hand is exactly as it
    was before the call.
    """
