"""Chip amounts for people, in the active language's way of writing numbers ("1,000" in
English, "1.000" in Spanish: config/formats). Data attributes, form values and the exports
keep plain digits."""

from django.utils.formats import number_format


def chips(amount: int | None) -> str:
    """ "12,500" / "12.500"; None stays empty."""
    if amount is None:
        return ""
    return number_format(amount, force_grouping=True)


def signed_chips(amount: int) -> str:
    """ "+1,000", "-20", "0": a change of chips."""
    return "+" + chips(amount) if amount > 0 else chips(amount)
