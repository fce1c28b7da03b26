"""Look-alike and invisible characters, from ICU: the one place both the nick check and the
word filter take them from.

- ``skeleton("Аla") == skeleton("Ala") == skeleton("Ａｌａ")``: the confusable skeleton of
  Unicode TS #39 (ICU's ``SpoofChecker``, CLDR's confusables data), less the default-ignorable
  code points, which ICU 72 still keeps (``"Ala\\u034f"`` has the skeleton of ``"Ala"``);
- ``is_default_ignorable("\\u3164")``: the code points a renderer shows as nothing (Hangul
  fillers, variation selectors, zero-width and bidi controls, tags...);
- ``latin_look("к") == "k"`` and ``latin_sound("у") == "u"``: the plain Latin letters that one
  letter of another alphabet looks like, or reads as (see ``fold.py`` for their use).

Pure: no I/O, only ICU's own data, compiled into the library.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import icu

_CHECKER = icu.SpoofChecker()
# How Cyrillic and Greek letters read in Latin letters (CLDR's transliterations): у -> u,
# х -> h, ш -> š, χ -> ch; letters of other alphabets come out as they went in. Then the
# Latin letters in plain ASCII: š -> s.
_TO_LATIN = icu.Transliterator.createInstance("Cyrillic-Latin; Greek-Latin")
_TO_ASCII = icu.Transliterator.createInstance("Latin-ASCII")
_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT
_EMOJI = icu.UProperty.EMOJI


def is_default_ignorable(char: str) -> bool:
    """Whether one code point is Default_Ignorable_Code_Point (shown as nothing)."""
    return bool(icu.Char.hasBinaryProperty(char, _IGNORABLE))


def is_emoji(char: str) -> bool:
    """Whether one code point has the Emoji property (also ``#``, ``*``, the digits, ``©``)."""
    return bool(icu.Char.hasBinaryProperty(char, _EMOJI))


def without_ignorables(text: str) -> str:
    """``text`` less its default-ignorable code points."""
    if text.isascii():
        return text
    return "".join(char for char in text if not is_default_ignorable(char))


def skeleton(text: str) -> str:
    """The TS #39 confusable skeleton of ``text``: equal skeletons look alike.

    Case matters (``"ala"`` and ``"ALA"`` differ, ``"I"`` is ``"l"``): casefold around it
    to compare without case. Digits and Latin letters are mapped too (``0`` -> ``O``,
    ``m`` -> ``rn``), so this is for comparing, not for showing.
    """
    return str(_CHECKER.getSkeleton(0, without_ignorables(text)))


def _plain(text: str) -> str:
    """``text`` without its combining marks, in lower case."""
    nfkd = unicodedata.normalize("NFKD", text)
    return "".join(c for c in nfkd if not unicodedata.combining(c)).lower()


def _letters(text: str) -> str | None:
    return text if text.isascii() and text.isalpha() else None


# Greek and Cyrillic letters that look like a Latin letter in lower case where CLDR's
# confusables have no such pair (they hold ω as the Latin omega ꞷ): borrowed for that look,
# they are read by it alone (fold.py).
LOOKS_TOO = {"ω": "w", "ш": "w", "щ": "w"}


@lru_cache(maxsize=4096)
def latin_look(letter: str) -> str | None:
    """The ASCII letters that ``letter`` looks like by its skeleton, or None.

    Marks on the skeleton are dropped (``ø`` -> ``o̸`` -> ``o``). A lower-case letter whose
    skeleton is not ASCII reads as its capital does: ``к`` has the skeleton ``ĸ`` (kra, a
    small capital K) and ``К`` the skeleton ``K``; likewise ``т``, ``в``, ``м``, ``н``,
    ``κ``. A letter that looks like a digit looks like no letter (``б`` -> ``6``): leetspeak
    is the filter's own business. A few letters look like a Latin letter where CLDR has no
    such pair (``LOOKS_TOO``: ``ω``, ``ш``, ``щ`` like w).
    """
    if letter in LOOKS_TOO:
        return LOOKS_TOO[letter]
    look = _plain(skeleton(letter))
    if not look.isascii():
        look = _plain(skeleton(letter.upper()))
    return _letters(look)


@lru_cache(maxsize=4096)
def latin_sound(letter: str) -> str | None:
    """The ASCII letters a Cyrillic or Greek letter reads as, or None for other letters.

    ``у`` -> ``u``, ``р`` -> ``r``, ``х`` -> ``h``, ``ш`` -> ``s``; the soft and hard
    signs have no reading (they transliterate to apostrophes).
    """
    reading = str(_TO_LATIN.transliterate(letter))
    return None if reading == letter else _letters(_plain(str(_TO_ASCII.transliterate(reading))))
