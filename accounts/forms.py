from django import forms
from django.contrib.auth.forms import BaseUserCreationForm

from .models import User


class SignupForm(BaseUserCreationForm):
    class Meta:
        model = User
        fields = ("username",)


class IdempotentForm(forms.Form):
    """A form that carries the server's one-time request id (``accounts.request_ids``), made
    when it is rendered: submitting it twice (double click, resubmitted page) sends the same
    id, so the chips move once."""

    request_id = forms.CharField(widget=forms.HiddenInput, max_length=200)


class ReloadForm(IdempotentForm):
    pass
