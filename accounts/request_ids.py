"""One-time request ids, made by the server for every form that moves chips.

A form carries a request id that is the server's own signed token: what the form is for, the
user it was rendered for, when, and a random nonce. Only a token the server signed for this
user and this purpose, younger than ``REQUEST_ID_MAX_AGE``, is read back, and only its nonce
goes into the chip movement's idempotency key (``cashier.services``). So the same form sent
twice applies once, and a request id can be neither made up nor borrowed from another player,
another purpose or another table. Which nonces were used is kept by the database (the
ledger's keys, the seat occupancies), not here.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core import signing
from django.utils.translation import gettext

_SALT = "omaha.request-id"


class RequestIdRefused(ValueError):
    """The form's request id is not one the server made for this user and purpose."""


class RequestIdExpired(RequestIdRefused):
    """The server made it, but too long ago."""


def new_request_id(user_id: int, purpose: str) -> str:
    return signing.TimestampSigner(salt=_SALT).sign(f"{purpose}|{user_id}|{secrets.token_hex(12)}")


def request_nonce(token: object, *, user_id: int, purpose: str) -> str:
    """The nonce of a request id the server made for ``user_id`` and ``purpose``, or RequestIdRefused."""
    if not isinstance(token, str):
        raise RequestIdRefused(gettext("That form is not valid: reload the page and try again."))
    try:
        value = signing.TimestampSigner(salt=_SALT).unsign(token, max_age=settings.REQUEST_ID_MAX_AGE)
    except signing.SignatureExpired:
        raise RequestIdExpired(gettext("That form has expired: try again.")) from None
    except signing.BadSignature:
        raise RequestIdRefused(gettext("That form is not valid: reload the page and try again.")) from None
    made_for, made_for_user, nonce = value.split("|")
    if made_for != purpose or made_for_user != str(user_id):
        raise RequestIdRefused(gettext("That form is not valid: reload the page and try again."))
    return nonce
