"""Filters every Django template has (settings.TEMPLATES "builtins"): chip amounts in the
page's language (``config.numbers``)."""

from django import template

from config import numbers

register = template.Library()
register.filter("chips", numbers.chips)
register.filter("signed_chips", numbers.signed_chips)
