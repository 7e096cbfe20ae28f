"""Chip amounts as each language of the room writes them (config.numbers)."""

import pytest
from django.utils import translation
from django.utils.formats import number_format
from hypothesis import given
from hypothesis import strategies as st

from config.numbers import chips, signed_chips


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", ["0", "999", "1,000", "12,500", "-1,000"]), ("es", ["0", "999", "1.000", "12.500", "-1.000"])],
)
def test_chips_group_thousands_as_the_language_does(language, written):
    with translation.override(language):
        assert [chips(amount) for amount in (0, 999, 1000, 12500, -1000)] == written
        assert signed_chips(1000) == "+" + written[2]


@given(amount=st.integers(min_value=-(10**12), max_value=10**12), language=st.sampled_from(["en", "es"]))
def test_chips_write_any_amount_as_djangos_number_format_does(amount, language):
    with translation.override(language):
        assert chips(amount) == number_format(amount, force_grouping=True)


def test_an_amount_that_is_not_an_integer_keeps_djangos_formatting():
    with translation.override("es"):
        assert chips("12500") == number_format("12500", force_grouping=True)
        assert chips(None) == ""


def test_an_amount_written_while_speaking_a_language_is_written_in_it_and_django_agrees():
    """``config.speaking``: the screens of a change are written in each language in turn, the
    language kept where an amount finds it without asking Django; Django's active language is
    the same inside, and the one before after."""
    from config.speaking import language, speaking

    with translation.override("en"):
        with speaking("es"):
            assert language() == translation.get_language() == "es"
            assert chips(12500) == "12.500"
            with speaking("en"):
                assert chips(12500) == "12,500"
            assert chips(12500) == "12.500"
        assert language() == translation.get_language() == "en"
        assert chips(12500) == "12,500"
