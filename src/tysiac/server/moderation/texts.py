"""Nicks, game names and chat lines as the server keeps them: cleaned, or refused.

Start here::

    clean_nick("  Ala  ")          # -> "Ala"
    clean_nick("\\u3164")            # TextRefused("error.invisible_nick", "nick"): a Hangul filler
    clean_name("   ")               # -> None: a blank game name is no name
    clean_chat("brawo 👍\\u200b")    # -> "brawo 👍": invisible characters dropped
    same_nick("Ala", "Аla")         # -> True: Cyrillic А, the same skeleton

Every text is put in NFC, its white space folded (the braille blank U+2800, which shows
as a space, counts as one), and refused (``TextRefused``, with a stable code and a Polish
message) when it is empty, too long, has control, format, private-use or surrogate
characters, or more than ``MAX_MARKS`` combining marks on one letter (zalgo). Default-
ignorable code points (variation selectors, Hangul fillers, zero-width and bidi controls:
see ``tysiac.wordfilter.skeleton``) are refused in nicks and game names and dropped from
chat lines; only a variation selector right after an emoji stays, as phones type it
(``❤️``). A nick needs a visible letter or digit.

Nicks are told apart by their TS #39 confusable skeleton in any case (``same_nick``): the
same ICU data the word filter reads look-alike letters with.

Pure: no I/O. ``errors.text_refusals`` turns ``TextRefused`` into a ``ServiceError`` (400).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from tysiac.catalogue import text
from tysiac.wordfilter.skeleton import is_default_ignorable, is_emoji, skeleton

NICK_MAX = 20
NAME_MAX = 40
CHAT_MAX = 200
MAX_MARKS = 2  # combining marks (Mn, Me) in a row after NFC: zalgo stacks dozens
BLANKS = str.maketrans({"\u2800": " "})  # braille blank: shows as a space, is none to .split()
SELECTORS = frozenset("\ufe0e\ufe0f")  # text or emoji presentation, after an emoji
REFUSED_CATEGORIES = frozenset(("Cc", "Cf", "Co", "Cs"))
MARKS = frozenset(("Mn", "Me"))


class TextRefused(ValueError):
    """A refused text: ``key`` the catalogue's (``error.<code>.<kind>``), ``field`` the
    form field it came in, ``params`` the message's values; ``message`` Polish."""

    def __init__(self, key: str, field: str, /, **params: object) -> None:
        self.message = text(key, **params)
        super().__init__(self.message)
        self.key = key
        self.code = key.split(".")[1]
        self.field = field
        self.params: dict[str, Any] = params


@dataclass(frozen=True, slots=True)
class Field:
    """One kind of text: its messages' keys end in ``kind`` (``error.too_long.nick``: each
    language's grammar agrees with its noun), ``field`` is where the request carries it,
    its limit, and what it does with invisible (default-ignorable) characters."""

    kind: str
    field: str
    limit: int
    drop_invisible: bool  # False: refuse them

    def refused(self, code: str, /, **params: object) -> TextRefused:
        return TextRefused(f"error.{code}.{self.kind}", self.field, **params)


NICK = Field("nick", "nick", NICK_MAX, drop_invisible=False)
NAME = Field("name", "name", NAME_MAX, drop_invisible=False)
CHAT = Field("chat", "text", CHAT_MAX, drop_invisible=True)


def clean_nick(text: str) -> str:
    """A nick, cleaned; refused when blank, too long, invisible or with bad characters."""
    nick = _folded(text, NICK)
    if not any(_visible(char) for char in nick):
        raise TextRefused("error.invisible_nick", NICK.field)
    _check_characters(nick, NICK)
    return nick


def clean_name(text: str | None) -> str | None:
    """A game name, cleaned, or None for no name or a blank one."""
    if text is None or not " ".join(text.translate(BLANKS).split()):
        return None
    return clean_text(text, NAME)


def clean_chat(text: str) -> str:
    """A chat line, cleaned: invisible characters dropped, not refused."""
    return clean_text(text, CHAT)


def clean_text(text: str, field: Field) -> str:
    """``text`` in NFC with its white space folded; refused (``TextRefused``) when empty,
    longer than ``field.limit``, or with characters not allowed in it."""
    text = _folded(text, field)
    _check_characters(text, field)
    return text


def same_nick(a: str, b: str) -> bool:
    """Whether two nicks look alike: the same confusable skeleton, in any case.

    Both as typed and lower-cased (``ALA`` is ``ala``; ``Ila`` is ``lla``, since ``I`` looks
    like ``l``), with the invisible characters and white space folded as ``clean_nick``
    does: ``Ala``, ``ALA``, ``Аla`` (Cyrillic А), ``Ａｌａ`` (fullwidth) and ``Ala`` with a
    variation selector are one nick; ``Ala`` and ``Ola`` are two.
    """
    return not nick_keys(a).isdisjoint(nick_keys(b))


def nick_keys(nick: str) -> frozenset[str]:
    """The skeletons ``same_nick`` compares, lower-cased."""
    text = " ".join(unicodedata.normalize("NFC", nick).translate(BLANKS).split())
    return frozenset((skeleton(text).casefold(), skeleton(text.casefold()).casefold()))


def _folded(text: str, field: Field) -> str:
    """NFC, invisible characters dropped (chat) and white space folded; empty and too long
    refused."""
    if field.drop_invisible:
        text = _without_invisible(text)
    text = " ".join(unicodedata.normalize("NFC", text).translate(BLANKS).split())
    if not text:
        raise field.refused("empty_text")
    if len(text) > field.limit:
        raise field.refused("too_long", limit=field.limit)
    return text


def _check_characters(text: str, field: Field) -> None:
    """Refuse control, format, private-use, surrogate and invisible characters, and zalgo."""
    if text.isascii():
        if any(unicodedata.category(char) == "Cc" for char in text):
            raise _bad_characters(field)
        return
    marks = 0
    previous = ""
    for char in text:
        category = unicodedata.category(char)
        invisible = category in REFUSED_CATEGORIES or is_default_ignorable(char)
        if invisible and not _presentation(previous, char):
            raise _bad_characters(field)
        marks = marks + 1 if category in MARKS else 0
        if marks > MAX_MARKS:
            raise field.refused("too_many_marks", limit=MAX_MARKS)
        if category not in MARKS:
            previous = char


def _bad_characters(field: Field) -> TextRefused:
    return field.refused("bad_characters")


def _presentation(previous: str, char: str) -> bool:
    """Whether ``char`` is a variation selector choosing how the emoji before it shows, as
    phones type them (``❤️``)."""
    return char in SELECTORS and previous != "" and is_emoji(previous)


def _without_invisible(text: str) -> str:
    """``text`` less its default-ignorable characters, but for emoji presentation selectors."""
    if text.isascii():
        return text
    kept: list[str] = []
    for char in text:
        if not is_default_ignorable(char) or _presentation(kept[-1] if kept else "", char):
            kept.append(char)
    return "".join(kept)


def _visible(char: str) -> bool:
    """A letter or a digit that shows (U+3164, the Hangul filler, is a letter that does not)."""
    return unicodedata.category(char)[0] in "LN" and not is_default_ignorable(char)
