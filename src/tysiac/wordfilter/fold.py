"""Folding: text as typed -> the small alphabet the filter compares in.

``split_words("Ty K.U.R.W.O!")`` gives every candidate word of a message, already
folded: ``(["ty", "k", "u", "r", "w", "o"], ["kurwo"])``.

Folding one word (``fold_word``) does, in order:

1. NFC and ``casefold`` (``KURWA`` -> ``kurwa``);
2. per character, cached: ``ó`` -> ``u`` (they sound alike), ``ł`` -> ``l``, Cyrillic and
   Greek look-alikes -> Latin (``кurwа``), NFKD with the marks dropped (``ą`` -> ``a``,
   fullwidth ``ｋ`` -> ``k``), invisible format characters (zero-width space, soft
   hyphen) removed;
3. leetspeak: ``0 3 4 @ 5 $ 7 8`` -> ``o e a a s s t b``; ``1 ! |`` stay as ``1``, a letter
   the patterns read as either ``i`` or ``l``;
4. spellings that sound alike: ``ch`` -> ``h``, ``rz`` -> ``z``, ``q`` -> ``ku``, ``x`` -> ``ks``
   (``v`` stays: the patterns read it as ``w`` or ``u``, as in ``kurva`` and ``dvpa``);
5. runs of one letter -> one letter (``kuuurwa`` -> ``kurwa``), except ``11`` (``d3b11`` is debil).
"""

from __future__ import annotations

import re
import unicodedata

# Letters that look like Latin ones (after casefold), and a few Latin letters
# that NFKD leaves alone.
LOOKALIKES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "п": "n",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ь": "b", "і": "i", "ј": "j",
    "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "г": "r",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u",
    "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ς": "c",
    # Latin letters without a decomposition
    "ó": "u", "ł": "l", "ı": "i", "ɑ": "a", "ø": "o", "đ": "d", "ħ": "h", "ŧ": "t",
    "ƶ": "z", "ß": "ss", "æ": "ae", "œ": "oe",
}  # fmt: skip
LEET = str.maketrans("034@5$78!|", "oeaasstb11")
SOUND_ALIKES = (("ch", "h"), ("rz", "z"), ("q", "ku"), ("x", "ks"))
WORD = re.compile(r"(?:[^\W_]|[@$!|])+")
REPEATS = re.compile(r"([^1])\1+")  # "11" may stand for "il", "li" or "ll"
# One or two letters masked inside a word: k*rwa, ch*j, sp##rdalaj (not *emphasis*).
MASK = re.compile(r"(?<=[^\W_])[*#]{1,2}(?=[^\W_])")
LETTERS = "abcdefghijklmnopqrstuvwxyz"


class _CharTable(dict[int, str | None]):
    """``str.translate`` table for step 2, filled on first sight of each character."""

    def __missing__(self, code: int) -> str | None:
        char = chr(code)
        if char in LOOKALIKES:
            result: str | None = LOOKALIKES[char]
        elif unicodedata.category(char) in ("Mn", "Me", "Cf"):
            result = None
        else:
            decomposed = unicodedata.normalize("NFKD", char)
            result = "".join(
                LOOKALIKES.get(c, c) for c in decomposed if not unicodedata.combining(c)
            )
        if code < 0x10000:  # cache the first plane only: the table stays small
            self[code] = result
        return result


_TABLE = _CharTable()


def fold_letters(text: str) -> str:
    """Steps 1 and 2 on a whole text; keeps separators, digits and symbols."""
    return unicodedata.normalize("NFC", text.casefold()).translate(_TABLE)


def finish(token: str) -> str:
    """Steps 3 to 5 on one token of ``fold_letters`` output."""
    if not token.isalpha():
        token = token.translate(LEET)
    token = _single(token)
    for spelling, sound in SOUND_ALIKES:
        if spelling in token:
            token = _single(token.replace(spelling, sound))
    return token


def _single(token: str) -> str:
    """Runs of one letter -> the letter (twice: before and after ``cch`` -> ``ch`` -> ``h``)."""
    return REPEATS.sub(_first, token) if REPEATS.search(token) else token


def _first(match: re.Match[str]) -> str:
    return match[1]


def fold_word(word: str) -> str:
    """One word (or a stem, a prefix, an allow-list entry) folded."""
    return "".join(finish(token) for token in WORD.findall(fold_letters(word)))


def _tokens(chunk: str) -> list[str]:
    """The tokens of one whitespace-free chunk, without ``!`` or ``|`` at their ends."""
    if chunk.isalpha():
        return [chunk]
    tokens = (token.strip("!|") for token in WORD.findall(chunk))
    return [token for token in tokens if token]


def split_words(text: str) -> tuple[list[str], list[str]]:
    """The folded words of ``text``, and the words that disguises had split up.

    The second list holds each chunk between spaces glued back together
    (``k.u.r.w.a``, ``ku-rwa``) and each run of one-letter words (``k u r w a``).
    Numbers are no words, but their digits count in glued words (``j 3 b 4 c``).
    """
    words: list[str] = []
    glued: list[list[str]] = []
    run: list[str] = []
    for chunk in fold_letters(text).split():
        tokens = _tokens(chunk)
        folded = [finish(token) for token in tokens]
        words += [word for token, word in zip(tokens, folded, strict=True) if not token.isdigit()]
        if len(tokens) > 1:
            glued.append(tokens)
        if len(folded) == 1 and len(folded[0]) == 1:
            run += tokens
        else:
            glued.append(run)
            run = []
    glued.append(run)
    joined = ("".join(tokens) for tokens in glued if len(tokens) > 1)
    return words, [finish(word) for word in joined if not word.isdigit()]


def unmasked(text: str) -> list[str]:
    """Each word with masked letters (``k*rwa``), every mask filled with every letter, folded.

    A mask of one or two ``*`` or ``#`` between letters stands for as many letters.
    """
    found: list[str] = []
    for chunk in text.split():
        masks = MASK.findall(chunk)
        if not masks or sum(len(mask) for mask in masks) > 2:
            continue
        fills = [""]
        for _ in range(sum(len(mask) for mask in masks)):
            fills = [fill + letter for fill in fills for letter in LETTERS]
        pieces = MASK.split(chunk)  # the text between the masks
        for fill in fills:
            filled, used = pieces[0], 0
            for mask, piece in zip(masks, pieces[1:], strict=True):
                filled += fill[used : used + len(mask)] + piece
                used += len(mask)
            found += split_words(filled)[0]
    return found
