"""Chip amounts for people, in the active language's way of writing numbers ("1,000" in
English, "1.000" in Spanish: config/formats). Data attributes, form values and the exports
keep plain digits."""

from functools import lru_cache

from django.utils.formats import get_format, number_format

from .speaking import language as active_language


def chips(amount: int | None, language: str | None = None) -> str:
    """ "12,500" / "12.500"; None stays empty. ``language``: the active one when not given."""
    if amount is None:
        return ""
    if type(amount) is not int:  # a decimal or a string: Django's general formatting
        return number_format(amount, force_grouping=True)
    # Every screen writes dozens of amounts: an integer is grouped by threes (every language
    # of the room, config/formats) without looking the format up again for each one.
    return f"{amount:,}".replace(",", _thousands_separator(language or active_language()))


@lru_cache(maxsize=16)
def _thousands_separator(language: str | None) -> str:
    assert get_format("NUMBER_GROUPING", language) == 3, "config/formats groups by threes"
    return str(get_format("THOUSAND_SEPARATOR", language))


def signed_chips(amount: int) -> str:
    """ "+1,000", "-20", "0": a change of chips."""
    return "+" + chips(amount) if amount > 0 else chips(amount)
