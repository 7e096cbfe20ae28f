"""What a username may look like beyond Django's own rules (letters, digits, @.+-_; NFKC).

- No invisible characters: Unicode's default-ignorable code points (zero-width joiners,
  Hangul fillers such as U+1160, variation selectors...) and anything else that draws
  nothing (format, control, space and unassigned characters, the blank Braille pattern).
- No mixed-script look-alikes ("аlice" with a Cyrillic "а").
- One name per *skeleton*: two names that look alike are one name. The skeleton is Unicode
  TR 39's (ICU's spoof checker, through PyICU), taken after full case folding, so "Bob",
  "bob", the all-Cyrillic "Ьоb"-style copies and "rn"/"m" pairs all fall on one key, which
  a unique index holds (``User.name_key``). A closed account keeps its key: its name is never
  given again.
- The room's own words are reserved at sign-up, in English and Spanish (``RESERVED_WORDS``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

import icu
from confusable_homoglyphs import confusables
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

MIXED_SCRIPT_LOOKALIKE = gettext_lazy(
    "This username mixes alphabets with letters that look alike (such as a Cyrillic “а” "
    "among Latin letters), so it could pass for another player. Please use the letters of one alphabet."
)
INVISIBLE_CHARACTER = gettext_lazy(
    "This username contains a character that cannot be seen (such as a zero-width or filler character). "
    "Please use visible letters and digits only."
)
LOOKS_TAKEN = gettext_lazy("This username looks like the name of another player: please choose another.")
RESERVED_NAME = gettext_lazy(
    "This username contains a word the room keeps for itself (such as “dealer” or “admin”): please choose another."
)

# The room's own words, English and Spanish: a player named so could pass for the room.
# Compared by skeleton with each part of the name (split at punctuation, digits and
# capitals), so "Dealer", "the_dealer", "TheDealer", "admin1" and "Аdmin" are refused while
# "Stafford" and "badminton" are not.
RESERVED_WORDS = (
    "admin", "admins", "administrator", "administrador", "administradora", "root", "superuser", "superusuario",
    "staff", "moderator", "moderador", "moderadora", "mod", "mods", "system", "sistema", "support", "soporte",
    "official", "oficial", "dealer", "crupier", "croupier", "cashier", "cajero", "cajera", "operator", "operador",
    "security", "seguridad",
)  # fmt: skip

# Drawn as nothing, or not a character at all: format (Cf), control (Cc), surrogate,
# private use, unassigned, separators (Z*). Default-ignorable code points are checked
# through ICU's property on top.
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})
_BLANK_SYMBOLS = frozenset({"\u2800"})  # BRAILLE PATTERN BLANK (a So "symbol" drawn as a space)


def is_invisible(character: str) -> bool:
    if icu.Char.hasBinaryProperty(character, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT):
        return True
    return unicodedata.category(character) in _INVISIBLE_CATEGORIES or character in _BLANK_SYMBOLS


def validate_visible(username: str) -> None:
    """Refuse a name with any invisible character, or one made only of combining marks."""
    if any(is_invisible(c) for c in username) or (
        username and all(unicodedata.category(c).startswith("M") for c in username)
    ):
        raise ValidationError(INVISIBLE_CHARACTER, code="invisible_character")


def validate_no_lookalikes(username: str) -> None:
    """Refuse a name that mixes scripts with confusable letters ("аlice" with a Cyrillic "а").

    A name in one script (Latin "José", all-Cyrillic "Алиса") passes; digits and
    punctuation belong to no script and never count as mixing. (A name in one script that
    looks like another player's is caught by its skeleton, ``username_key``.)
    """
    if username and confusables.is_dangerous(username):
        raise ValidationError(MIXED_SCRIPT_LOOKALIKE, code="mixed_script_lookalike")


@cache
def _spoof_checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


def skeleton(text: str) -> str:
    """Unicode TR 39's skeleton: NFD, each character to its prototype look-alike, NFD again."""
    return str(_spoof_checker().getSkeleton(0, text))


def username_key(username: str) -> str:
    """The key two names share when they look alike: the skeleton of the case-folded NFKC
    name, case-folded again (a prototype may be a capital: "0" becomes "O")."""
    folded = unicodedata.normalize("NFKC", username).casefold()
    return unicodedata.normalize("NFC", skeleton(folded)).casefold()


_PARTS = re.compile(r"[^\W\d_]+", re.UNICODE)  # runs of letters
_CAMEL = re.compile(r"(?<=[^\W\d_])(?=[A-Z][a-z])|(?<=[a-z])(?=[A-Z])")


def _parts(username: str) -> list[str]:
    name = unicodedata.normalize("NFKC", username)
    return [piece for run in _PARTS.findall(name) for piece in _CAMEL.split(run) if piece]


@cache
def _reserved_keys() -> frozenset[str]:
    return frozenset(username_key(word) for word in RESERVED_WORDS)


def is_reserved(username: str) -> bool:
    reserved = _reserved_keys()
    name = unicodedata.normalize("NFKC", username)
    wholes = (re.sub(r"[\W_]+", "", name), re.sub(r"[\W\d_]+", "", name))  # "d.e.a.1.e.r", "admin1"
    return any(username_key(whole) in reserved for whole in wholes) or any(
        username_key(part) in reserved for part in _parts(username)
    )


def validate_not_reserved(username: str) -> None:
    if is_reserved(username):
        raise ValidationError(RESERVED_NAME, code="reserved_name")
