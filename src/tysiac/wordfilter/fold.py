"""Folding: text as typed -> the small alphabet the filter compares in.

``split_words("Ty K.U.R.W.O!")`` gives every candidate word of a message, already
folded: ``(["ty", "k", "u", "r", "w", "o"], ["kurwo"])``.

Folding one word (``fold_word``) does, in order:

1. NFC and ``casefold`` (``KURWA`` -> ``kurwa``);
2. per character, cached: ``ó`` -> ``u`` (they sound alike), ``ł`` -> ``l``, NFKD with the
   marks dropped (``ą`` -> ``a``, fullwidth ``ｋ`` -> ``k``), invisible characters (format
   and default-ignorable ones: zero-width space, soft hyphen, Hangul filler, variation
   selectors) removed; any other letter -> the Latin letter its confusable skeleton is
   (``skeleton.py``, the same ICU data the nick check uses: ``кurwа``, ``ø``), and a Cyrillic
   or Greek one also -> the letter it reads as (``у`` -> ``y`` by look, ``u`` by sound), each
   word then read both ways (``readings``: ``kуrwa``, ``курва``);
3. leetspeak: ``0 3 4 @ 5 $ 7 8`` -> ``o e a a s s t b``; ``1 ! |`` stay as ``1``, a letter
   the patterns read as either ``i`` or ``l``;
4. spellings that sound alike: ``ch`` -> ``h``, ``rz`` -> ``z``, ``x`` -> ``ks``, ``q`` -> ``k``
   before a vowel (``suqa``), else ``ku`` (``qrwa``, ``qtas``)
   (``v`` stays: the patterns read it as ``w`` or ``u``, as in ``kurva`` and ``dvpa``);
5. runs of one letter -> one letter (``kuuurwa`` -> ``kurwa``), except ``11`` (``d3b11`` is debil).
"""

from __future__ import annotations

import itertools
import re
import unicodedata

from .skeleton import is_default_ignorable, latin_look, latin_sound

# Polish letters read by sound, or with no decomposition; the other Polish letters lose
# their marks in NFKD (ą -> a). Neither they nor ASCII letters and digits go through the
# skeleton: it maps I -> l, m -> rn, 0 -> O, ł -> l̸, and leetspeak is step 3's business.
POLISH = {"ó": "u", "ł": "l"}
LEET = str.maketrans("034@5$78!|", "oeaasstb11")
SOUND_ALIKES = (("ch", "h"), ("rz", "z"), ("x", "ks"))
Q_BEFORE_VOWEL = re.compile(r"q(?=[aeioy])")  # suqa, suqinsyn: q is k; qrwa, qtas: ku
WORD = re.compile(r"(?:[^\W_]|[@$!|])+")
REPEATS = re.compile(r"([^1])\1+")  # "11" may stand for "il", "li" or "ll"
# One or two letters masked inside a word: k*rwa, ch*j, sp##rdalaj (not *emphasis*).
MASK = re.compile(r"(?<=[^\W_])[*#]{1,2}(?=[^\W_])")
# A longer mask after a first letter: k***a, ch**j, kurw*, k...a (two dots or more).
MASKS = r"(?:[*#]+|\.{2,})"
LONG_MASK = re.compile(rf"[^\W\d_]+(?:{MASKS}[^\W\d_]*)+")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Letters in squares and circles without a decomposition: 🅺 🄺 🅚 (not the regional
# indicators 🇰: two of them are a flag)
ENCLOSED = re.compile(r"(?:NEGATIVE )?(?:SQUARED|CIRCLED) LATIN CAPITAL LETTER ([A-Z])")
MIXED = 3  # a word with more letters of two readings is read all by look, then all by sound

# Letters outside the Polish alphabet and their readings in Latin letters, by look then by
# sound (у: y and u; к: k; д: d), and by look alone (у: y; к: k; д has none), filled by
# _CharTable. Step 2 leaves these letters in the text, so that ``readings`` still sees
# which words mix them with Latin letters.
READINGS: dict[str, tuple[str, ...]] = {}
LOOKS: dict[int, str] = {}  # a str.translate table
ASCII = re.compile(r"[\x00-\x7f]")
EAST_SLAVIC = re.compile("[а-яёєіїґў]+")  # after casefold: the letters of eastern.py's words


class _CharTable(dict[int, str | None]):
    """``str.translate`` table for step 2, filled on first sight of each character."""

    def __missing__(self, code: int) -> str | None:
        char = chr(code)
        result: str | None
        if char in POLISH:
            result = POLISH[char]
        elif unicodedata.category(char) in ("Mn", "Me", "Cf") or is_default_ignorable(char):
            result = None
        elif enclosed := ENCLOSED.fullmatch(unicodedata.name(char, "")):
            result = enclosed[1].lower()  # 🅺 has no decomposition: a letter by its name
        else:
            decomposed = unicodedata.normalize("NFKD", char)
            result = "".join(c for c in decomposed if not unicodedata.combining(c))
            if not result.isascii() and unicodedata.category(char)[0] == "L":
                look, sound = latin_look(char), latin_sound(char)
                if look or sound:
                    READINGS[char] = tuple(dict.fromkeys(r for r in (look, sound) if r))
                    LOOKS[code] = look or char
                    result = char
        if code < 0x10000:  # cache the first plane only: the table stays small
            self[code] = result
        return result


_TABLE = _CharTable()


def fold_letters(text: str) -> str:
    """Steps 1 and 2 on a whole text; keeps separators, digits and symbols."""
    return unicodedata.normalize("NFC", text.casefold()).translate(_TABLE)


def readings(token: str) -> list[str]:
    """A token of ``fold_letters`` output in Latin letters: the first reading, then others.

    A letter outside the Polish alphabet reads as the Latin letters its confusable skeleton
    is (ICU, ``skeleton.latin_look``): ``к`` -> k, ``р`` -> p, ``ѕ`` -> s, ``ø`` -> o. A
    Cyrillic or Greek letter also reads as it sounds (``skeleton.latin_sound``), for some
    another letter: ``у`` is y by look and u by sound, ``р`` p and r, ``н`` h and n, ``с`` c
    and s; ``д``, ``п``, ``ω`` look like no Latin letter and only sound like d, p, o. People
    mix Latin letters with both kinds: ``kурwa`` borrows р for its look, ``kуrwa`` у for its
    sound. So a token that mixes them with Latin letters or digits is read in every mix of
    its letters' readings, look first (``kуrwa`` -> ``kyrwa``, ``kurwa``); one with more than
    ``MIXED`` letters of two readings all by look, then all by sound. No table: both readings
    are CLDR's data, through ICU.

    A word all in Cyrillic or Greek is read by look alone, its letters that look like no
    Latin letter left as they are, as before ICU. Read by sound, Ukrainian and Russian words
    would hit Polish stems by the thousand (дупель, a snipe; сипати, to pour; сразу, at
    once): Debian's Ukrainian dictionary (wukrainian) has 1.5 million forms to try. A word
    all in the letters of the Ukrainian and Russian alphabets is not read at all: by look,
    Ukrainian сіра (grey) would be cipa, Russian поцелуев (of kisses) hold yeb. Their own
    vulgarities are ``eastern.py``'s business; other Cyrillic letters (ѕ, һ, ј) are a
    disguise, and read by look.
    """
    if token.isascii():
        return [token]
    if not ASCII.search(token):
        return [token if EAST_SLAVIC.fullmatch(token) else token.translate(LOOKS)]
    options = [READINGS.get(char, (char,)) for char in token]
    if sum(len(option) > 1 for option in options) <= MIXED:
        return ["".join(mix) for mix in itertools.product(*options)]
    return ["".join(option[0] for option in options), "".join(option[-1] for option in options)]


def finish(token: str) -> str:
    """Steps 3 to 5 on one token of ``fold_letters`` output, read by look."""
    return _finish(token if token.isascii() else readings(token)[0])


def finish_all(token: str) -> list[str]:
    """Steps 3 to 5 on each reading of one token of ``fold_letters`` output, look first."""
    read = readings(token)
    if len(read) == 1:
        return [_finish(read[0])]
    return list(dict.fromkeys(_finish(reading) for reading in read))


def _finish(token: str) -> str:
    if not token.isalpha():
        token = token.translate(LEET)
    token = _single(token)
    if "q" in token:
        token = _single(Q_BEFORE_VOWEL.sub("k", token).replace("q", "ku"))
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


PIPED = re.compile(r"(?:[^\W\d_]\|)+[^\W\d_]")  # k|u|r|w|a: | separates, it is no l


def tokens(chunk: str) -> list[str]:
    """The tokens of one whitespace-free chunk, without ``!`` or ``|`` at their ends."""
    if chunk.isalpha():
        return [chunk]
    if PIPED.fullmatch(chunk):
        return chunk.split("|")
    tokens = (token.strip("!|") for token in WORD.findall(chunk))
    return [token for token in tokens if token]


def split_words(text: str) -> tuple[list[str], list[str]]:
    """The folded words of ``text``, and more candidates: words that disguises had split up,
    and the other readings of words with letters of two readings.

    The second list holds each chunk between spaces glued back together
    (``k.u.r.w.a``, ``ku-rwa``) and each run of one-letter words (``k u r w a``), in every
    reading, then the other readings of the words (``kуrwa``: ``kurwa``; the first list has
    ``kyrwa``). Numbers are no words, but their digits count in glued words (``j 3 b 4 c``).
    """
    words: list[str] = []
    others: list[str] = []
    glued: list[list[str]] = []
    run: list[str] = []
    for chunk in fold_letters(text).split():
        found = tokens(chunk)
        if chunk.isascii():
            folded = [_finish(token) for token in found]
        else:  # letters outside the Polish alphabet are still there: read them
            folded = []
            for token in found:
                read = finish_all(token)
                folded.append(read[0])
                others += read[1:]
        words += [word for token, word in zip(found, folded, strict=True) if not token.isdigit()]
        if len(found) > 1:
            glued.append(found)
        if len(folded) == 1 and len(folded[0]) == 1:
            run += found
        else:
            glued.append(run)
            run = []
    glued.append(run)
    joined = ("".join(tokens) for tokens in glued if len(tokens) > 1)
    glued_words = [read for word in joined if not word.isdigit() for read in finish_all(word)]
    return words, glued_words + others


def plain(text: str) -> str:
    """Steps 1 to 3 only (no sound-alikes, no repeats): to compare letter for letter."""
    return fold_letters(text).translate(LEET)


def mask_patterns(text: str) -> list[re.Pattern[str]]:
    """Each word of ``text`` with three masked letters or more, or masked at its end, or by
    dots, as a regex of words folded by ``plain``: ``k***a`` -> ``k.{2,4}a``, ``kurw*`` ->
    ``kurw.{0,2}``, ``ch..j`` -> ``ch.{1,2}j`` (matched in full)."""
    found: list[re.Pattern[str]] = []
    for chunk in text.split():
        for word in LONG_MASK.findall(chunk):
            masks = re.findall(MASKS, word)
            if "." not in word and sum(map(len, masks)) < 3 and not word.endswith(("*", "#")):
                continue  # unmasked() fills these in
            shown = [re.escape(plain(piece)) for piece in re.split(MASKS, word)]
            # dots are seldom counted: k..a, ch..j; stars are, give or take one: k***a
            dots = [
                f".{{1,{len(mask)}}}" if mask[0] == "." else f".{{{len(mask) - 1},{len(mask) + 1}}}"
                for mask in masks
            ] + [""]
            found.append(re.compile("".join(s + d for s, d in zip(shown, dots, strict=True))))
    return found


def unmasked(text: str) -> list[str]:
    """Each word with masked letters (``k*rwa``), every mask filled with every letter, folded.

    A mask of one or two ``*`` or ``#`` between letters stands for as many letters.
    """
    found: list[str] = []
    for chunk in text.split():
        for filled in masked_fills(chunk):
            found += split_words(filled)[0]
    return found


def masked_fills(chunk: str, letters: str = LETTERS) -> list[str]:
    """A chunk (no spaces) with one or two letters masked by ``*`` or ``#`` between letters
    (``k*rwa``, ``х**ня``), each mask filled with each of ``letters``; else nothing."""
    masks = MASK.findall(chunk)
    if not masks or sum(len(mask) for mask in masks) > 2:
        return []
    fills = [""]
    for _ in range(sum(len(mask) for mask in masks)):
        fills = [fill + letter for fill in fills for letter in letters]
    pieces = MASK.split(chunk)  # the text between the masks
    found = []
    for fill in fills:
        filled, used = pieces[0], 0
        for mask, piece in zip(masks, pieces[1:], strict=True):
            filled += fill[used : used + len(mask)] + piece
            used += len(mask)
        found.append(filled)
    return found
