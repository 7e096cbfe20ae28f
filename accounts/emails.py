"""The optional e-mail address of an account: set at sign-up or on the profile, verified by a
link sent to it, and only then used for password resets (Django's views, ``accounts.urls``).

The link carries a signed token (``django.core.signing``, salted, timestamped) of the account
and the address: it verifies that address for that account only, for
``EMAIL_VERIFICATION_MAX_AGE`` seconds, and means nothing once the address has changed. A
verified address belongs to one account whatever its case (a database constraint).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext

from .models import User

SALT = "accounts.email-verification"
logger = logging.getLogger(__name__)


class VerificationFailed(Exception):
    """The link is broken, expired, for another address, or the address is taken; the message says which."""


def set_email(user: User, email: str) -> bool:
    """Record a new (unverified) address, or none; True when it changed."""
    email = User.objects.normalize_email(email.strip())
    if email == user.email:
        return False
    user.email = email
    user.email_verified = False
    user.save(update_fields=["email", "email_verified"])
    return True


def verification_token(user: User) -> str:
    return signing.dumps({"user": user.pk, "email": user.email.lower()}, salt=SALT, compress=True)


def send_verification(request: HttpRequest, user: User) -> None:
    """Send the link that verifies ``user.email`` to that address. A mail server that fails is
    logged: the address stays unverified, and the profile can send the link again."""
    if not user.email:
        return
    link = request.build_absolute_uri(reverse("verify_email", args=[verification_token(user)]))
    context = {"user": user, "link": link, "days": max(1, settings.EMAIL_VERIFICATION_MAX_AGE // 86400)}
    subject = render_to_string("registration/verify_email_subject.txt", context).strip()
    body = render_to_string("registration/verify_email_email.txt", context)
    try:
        send_mail(subject, body, None, [user.email])
    except Exception:
        logger.exception("could not send the verification mail of user %s", user.pk)


def verify(token: str) -> User:
    """Mark the address in ``token`` verified for its account; VerificationFailed if it cannot be."""
    try:
        claim = signing.loads(token, salt=SALT, max_age=settings.EMAIL_VERIFICATION_MAX_AGE)
    except signing.SignatureExpired:
        raise VerificationFailed(gettext("This link has expired: ask for a new one on your profile.")) from None
    except signing.BadSignature:
        raise VerificationFailed(gettext("This link is not valid.")) from None
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=claim.get("user"), is_active=True).first()
        if user is None or user.email.lower() != claim.get("email"):
            raise VerificationFailed(gettext("This link is for an address that is no longer on the account."))
        if user.email_verified:
            return user
        if User.objects.filter(email__iexact=user.email, email_verified=True).exclude(pk=user.pk).exists():
            raise VerificationFailed(gettext("That e-mail address is already verified for another account."))
        user.email_verified = True
        try:
            with transaction.atomic():
                user.save(update_fields=["email_verified"])
        except IntegrityError:  # verified for another account at the same moment
            raise VerificationFailed(gettext("That e-mail address is already verified for another account.")) from None
    return user
