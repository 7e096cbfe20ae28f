"""What a username may look like beyond Django's own rules (letters, digits, @.+-_; NFKC)."""

from confusable_homoglyphs import confusables
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

MIXED_SCRIPT_LOOKALIKE = gettext_lazy(
    "This username mixes alphabets with letters that look alike (such as a Cyrillic “а” "
    "among Latin letters), so it could pass for another player. Please use the letters of one alphabet."
)


def validate_no_lookalikes(username: str) -> None:
    """Refuse a name that mixes scripts with confusable letters ("аlice" with a Cyrillic "а").

    A name in one script (Latin "José", all-Cyrillic "Алиса") passes; digits and
    punctuation belong to no script and never count as mixing.
    """
    if username and confusables.is_dangerous(username):
        raise ValidationError(MIXED_SCRIPT_LOOKALIKE, code="mixed_script_lookalike")
