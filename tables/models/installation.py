"""This installation of the room (its number in exported hand histories)."""

import secrets

from django.db import models


def _new_installation_number() -> int:
    return INSTALLATION_NUMBERS.start + secrets.randbelow(len(INSTALLATION_NUMBERS))


# Six digits, so every installation's exported hand numbers have the same width (tables.history.numbering).
INSTALLATION_NUMBERS = range(100_000, 1_000_000)


class Installation(models.Model):
    """This installation of the room, one row created once: its random number sets it apart from
    every other installation (and from this one after a database reset) in exported hand numbers."""

    number = models.PositiveIntegerField(
        default=_new_installation_number, help_text="Drawn at random when the row is created; never changed."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Installation {self.number}"

    @classmethod
    def current(cls) -> "Installation":
        installation, _ = cls.objects.get_or_create(pk=1)
        return installation
