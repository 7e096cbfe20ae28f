import uuid

from django import forms
from django.contrib.auth.forms import BaseUserCreationForm

from .models import User


class SignupForm(BaseUserCreationForm):
    class Meta:
        model = User
        fields = ("username",)


class IdempotentForm(forms.Form):
    """A form that carries a one-time key made when it is rendered.

    Submitting it twice (double click, resubmitted page) sends the same key,
    so the cashier applies it once.
    """

    request_id = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)


class ReloadForm(IdempotentForm):
    pass
