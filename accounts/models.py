from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .usernames import LOOKS_TAKEN, username_key, validate_visible

USERNAME_TAKEN = _("A user with that username already exists.")
EMAIL_TAKEN = _("That e-mail address is already verified for another account.")


class UserManager(DjangoUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> "User":
        """Log-in finds the account whatever the case typed: "Bob" logs in as "bob"
        (usernames are unique regardless of case, so there is at most one)."""
        return self.get(**{f"{self.model.USERNAME_FIELD}__iexact": username})


class User(AbstractUser):
    """A player (or staff member). Custom from the first migration, as Django advises."""

    objects: ClassVar[UserManager] = UserManager()

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

    # The TR 39 skeleton of the name, case-folded (accounts/usernames.py): two names that look
    # alike share it, and the unique index refuses the second. Set from the name whenever the
    # name changes, except on a closed account, whose key keeps its old name from ever being
    # given again. (Names that already collided when the key was added keep their names; see
    # migration 0005.)
    name_key = models.CharField(max_length=600, unique=True, editable=False)
    closed_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        verbose_name=_("closed at"),
        help_text=_("The player closed the account: the name is replaced, the chips went back to the house."),
    )
    banned_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        verbose_name=_("banned at"),
        help_text=_("Staff banned the player: log-in is refused; the chips are kept."),
    )
    ban_reason = models.TextField(blank=True, editable=False, verbose_name=_("reason for the ban"))
    # The e-mail address (optional) is for password resets only, and only once its owner has
    # followed the link sent to it (accounts/emails.py).
    email_verified = models.BooleanField(
        default=False,
        verbose_name=_("e-mail address verified"),
        help_text=_("Its owner followed the link sent to it: password resets may go there."),
    )

    class Meta:
        db_table = "accounts_user"
        constraints = [
            # "bob" and "Bob" are one name: a second player could pass for the first.
            models.UniqueConstraint(
                Lower("username"), name="accounts_user_username_ci_unique", violation_error_message=USERNAME_TAKEN
            ),
            # A verified address belongs to one account, whatever its case (a reset goes to one).
            models.UniqueConstraint(
                Lower("email"),
                condition=models.Q(email_verified=True),
                name="accounts_user_verified_email_ci_unique",
                violation_error_message=EMAIL_TAKEN,
            ),
        ]

    def _key_if_renamed(self) -> str | None:
        """The key of the name when it is not the one the row holds (a new account, or a
        rename); None when it is (a legacy key of migration 0005, "apex#17", holds "apex")."""
        key = username_key(self.username)
        if self.name_key and (self.name_key == key or self.name_key.startswith(key + "#")):
            return None
        return key

    def clean(self) -> None:
        super().clean()
        if self.username:
            validate_visible(self.username)
        key = self._key_if_renamed() if self.username and self.closed_at is None else None
        if key is not None:
            other = User.objects.exclude(pk=self.pk).filter(name_key=key).values_list("username", flat=True).first()
            if other is not None:
                same = other.lower() == self.username.lower()
                raise ValidationError({"username": USERNAME_TAKEN if same else LOOKS_TAKEN})

    def save(self, *args: Any, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        if self.closed_at is None and (update_fields is None or "username" in update_fields):
            key = self._key_if_renamed()
            if key is not None:
                self.name_key = key
                if update_fields is not None:
                    kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None
