"""Count failed log-ins per address (successful ones are never counted)."""

from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest

from .throttles import count_login_failure


@receiver(user_login_failed, dispatch_uid="accounts.count_login_failure")
def count_failed_login(
    sender: str, credentials: dict[str, str], request: HttpRequest | None = None, **kwargs: object
) -> None:
    # A refused attempt (already past the limit) checked no password: nothing to count.
    if request is not None and getattr(request, "login_throttled_for", None) is None:
        count_login_failure(request)
