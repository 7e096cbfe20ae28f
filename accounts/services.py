"""Player registration: the account and its sign-up grant, together or not at all."""

from django.db import transaction

from cashier import services as cashier

from .models import User


def register_player(*, username: str, password: str, email: str = "") -> User:
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password, email=email)
        cashier.grant(user=user)
    return user
