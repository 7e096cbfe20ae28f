from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

USERNAME_TAKEN = _("A user with that username already exists.")


class UserManager(DjangoUserManager):
    def get_by_natural_key(self, username):
        """Log-in finds the account whatever the case typed: "Bob" logs in as "bob"
        (usernames are unique regardless of case, so there is at most one)."""
        return self.get(**{f"{self.model.USERNAME_FIELD}__iexact": username})


class User(AbstractUser):
    """A player (or staff member). Custom from the first migration, as Django advises."""

    objects = UserManager()

    language = models.CharField(
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("The language the room speaks to this player (empty: their browser's)."),
    )
    chat_muted = models.BooleanField(
        default=False,
        verbose_name=_("muted in chat"),
        help_text=_("Set by staff: the player can read the chat at every table but not write in it."),
    )

    class Meta:
        db_table = "accounts_user"
        constraints = [
            # "bob" and "Bob" are one name: a second player could pass for the first.
            models.UniqueConstraint(
                Lower("username"), name="accounts_user_username_ci_unique", violation_error_message=USERNAME_TAKEN
            ),
        ]
