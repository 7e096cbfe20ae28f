from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, UserCreationForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .models import User
from .throttles import count_old_password_failure, reset_mail_allowed
from .usernames import validate_no_lookalikes, validate_not_reserved, validate_visible

if TYPE_CHECKING:  # generic for mypy only: Django's forms take no type arguments at run time
    _UserCreationForm = UserCreationForm[User]
else:
    _UserCreationForm = UserCreationForm


class SignupForm(_UserCreationForm):
    """Django's creation form: NFKC-normalised username, "Bob" refused when "bob" exists,
    password validators; plus no invisible characters, no mixed-script look-alikes, none of
    the room's own words, and (``User.clean``) no name that looks like another's."""

    class Meta(UserCreationForm.Meta):  # keeps UsernameField: NFKC before any check, autocomplete
        model = User
        fields = ("username", "email")
        help_texts = {
            "email": _("Optional. Only for resetting a forgotten password, once you follow the link we send.")
        }

    # django-stubs says str; Django's own returns None when the name is taken.
    def clean_username(self) -> str | None:  # type: ignore[override]
        username: str | None = super().clean_username()  # None when the name is taken (error already added)
        if username is not None:
            validate_visible(username)
            validate_no_lookalikes(username)
            validate_not_reserved(username)
        return username


class IdempotentForm(forms.Form):
    """A form that carries the server's one-time request id (``accounts.request_ids``), made
    when it is rendered: submitting it twice (double click, resubmitted page) sends the same
    id, so the chips move once."""

    request_id = forms.CharField(widget=forms.HiddenInput, max_length=200)


class ReloadForm(IdempotentForm):
    pass


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's password change, whose wrong old passwords count like failed log-ins
    (``accounts.throttles.old_password_retry_after``; the view refuses past the limit)."""

    def __init__(self, user: User, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        self.request = request
        super().__init__(user, *args, **kwargs)

    def clean_old_password(self) -> str:
        try:
            return super().clean_old_password()
        except forms.ValidationError:
            if self.request is not None:
                count_old_password_failure(self.request)
            raise


class CloseAccountForm(forms.Form):
    """Closing asks for the password again; a wrong one counts like a wrong old password."""

    password = forms.CharField(
        label=_("Your password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )

    def __init__(self, user: User, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        self.user = user
        self.request = request
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            if self.request is not None:
                count_old_password_failure(self.request)
            raise forms.ValidationError(_("That is not your password."), code="password_incorrect")
        return password


class EmailForm(forms.Form):
    """The account's e-mail address, on the profile (empty: none)."""

    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_("Only for resetting a forgotten password, once you follow the link we send."),
    )


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's reset form: the mail goes only to a verified address of an active account,
    and at most ``PASSWORD_RESET_ACCOUNT_RATE`` times per account; the answer is the same
    whatever the address (the view)."""

    def save(self, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        self._request = request
        kwargs["request"] = request
        return super().save(*args, **kwargs)

    def get_users(self, email: str) -> Iterator[User]:
        request = getattr(self, "_request", None)
        for user in super().get_users(email):
            if (
                user.email_verified
                and user.closed_at is None
                and (request is None or reset_mail_allowed(request, user))
            ):
                yield user
