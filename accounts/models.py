from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A player (or staff member). Custom from the first migration, as Django advises."""

    class Meta:
        db_table = "accounts_user"
