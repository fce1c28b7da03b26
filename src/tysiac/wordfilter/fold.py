"""Folding: text as typed -> the small alphabet the filter compares in.

``split_words("Ty K.U.R.W.O!")`` gives every candidate word of a message, already
folded: ``(["ty", "k", "u", "r", "w", "o"], ["kurwo"])``.

Folding one word (``fold_word``) does, in order:

1. combining marks and invisible characters dropped before anything else (``o`` + ◌́ is a
   disguised ``o``, not the ``ó`` that reads as u; casefold would make the iota subscript
   ◌ͅ a letter), letters drawn with several characters read as letters (``DRAWN``: ``|)``
   d, ``|<`` k, ``\\/\\/`` w, ``\\/`` v, ``()`` o, ``|_|`` u), then NFC and ``casefold``
   (``KURWA`` -> ``kurwa``);
2. per character, cached: ``ó`` -> ``u`` (they sound alike), ``ł`` -> ``l``, NFKD with the
   marks dropped and case folded again (``ą`` -> ``a``, fullwidth ``ｋ`` -> ``k``, ``𝐊`` ->
   ``k``), letters in squares, circles and parentheses and small capitals by their names
   (``🅺``, ``⒦``, ``ᴋ``, ``ᶦ``: NFKC leaves small capitals alone), invisible characters
   (format and default-ignorable ones: zero-width space, soft hyphen, Hangul filler,
   variation selectors) removed; any other letter -> the Latin letter its confusable
   skeleton is (``skeleton.py``, the same ICU data the nick check uses: ``кurwа``, ``ø``; and
   ``skeleton.LOOKS_TOO``: ``ω`` and ``ш`` look like w), and a Cyrillic or Greek one also ->
   the letter it reads as (``у`` -> ``y`` by look, ``u`` by sound), each word then read both
   ways (``readings``: ``kуrwa``, ``курва``);
3. leetspeak: ``0 3 4 @ 5 $ 7 8 9 € !`` -> ``o e a a s s t b g e i``; ``1 |`` stay as ``1``, a
   letter the patterns read as either ``i`` or ``l``; two zeros are also read as ``u``
   (``ch00j``: oo sounds as u), and a doubled k as ``ck`` (``dikk``);
4. spellings that sound alike: ``ph`` -> ``f``, ``ch`` -> ``h``, ``rz`` -> ``z``, ``x`` ->
   ``ks``, ``q`` -> ``k`` before a vowel (``suqa``), else ``ku`` (``qrwa``, ``qtas``)
   (``v`` stays: the patterns read it as ``w`` or ``u``, as in ``kurva`` and ``dvpa``);
5. runs of one letter -> one letter (``kuuurwa`` -> ``kurwa``), except ``11`` (``d3b11`` is debil).

A message is cut into words at spaces and separators (``candidates``), and a nick's words
also where a CamelCase part starts (``camel_parts``: ``KrolKurew``, ``MrCHUJMaly``,
``B19_Kurwa_PL``): each part is a word, and the parts are glued whole only to be matched
from the start of a part (``Words.nicks``: ``KurWa``). A number after a word is no letter
(``Suko2000``).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from typing import NamedTuple

from .skeleton import LOOKS_TOO, is_default_ignorable, latin_look, latin_sound

# Polish letters read by sound, or with no decomposition; the other Polish letters lose
# their marks in NFKD (ą -> a). Neither they nor ASCII letters and digits go through the
# skeleton: it maps I -> l, m -> rn, 0 -> O, ł -> l̸, and leetspeak is step 3's business.
POLISH = {"ó": "u", "ł": "l"}
LEET = str.maketrans("034@5$789€!|", "oeaasstbgei1")
# Letters drawn with several characters, read before anything else: |) is d, \/\/ is w.
DRAWN: tuple[tuple[str, str], ...] = (
    ("|\\/|", "m"),
    ("\\/\\/", "w"),
    ("|\\|", "n"),
    ("|_|", "u"),
    ("|)", "d"),
    ("|<", "k"),
    ("\\/", "v"),
    ("()", "o"),
)
SOUND_ALIKES = (("ch", "h"), ("rz", "z"), ("x", "ks"))
Q_BEFORE_VOWEL = re.compile(r"q(?=[aeioy])")  # suqa, suqinsyn: q is k; qrwa, qtas: ku
WORD = re.compile(r"(?:[^\W_]|[@$!|€])+")
REPEATS = re.compile(r"([^1])\1+")  # "11" may stand for "il", "li" or "ll"
# One or two letters masked inside a word: k*rwa, ch*j, sp##rdalaj (not *emphasis*).
MASK = re.compile(r"(?<=[^\W_])[*#]{1,2}(?=[^\W_])")
# A longer mask after a first letter: k***a, ch**j, kurw*, k...a (two dots or more).
MASKS = r"(?:[*#]+|\.{2,})"
LONG_MASK = re.compile(rf"[^\W\d_]+(?:{MASKS}[^\W\d_]*)+")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Letters in squares, circles and parentheses, by their name: 🅺 🄺 🅚 have no decomposition,
# ⒦ decomposes to "(k)", which would cut a word in three (not the regional indicators 🇰:
# two of them are a flag)
ENCLOSED = re.compile(
    r"(?:NEGATIVE )?(?:SQUARED|CIRCLED|PARENTHESIZED) LATIN (?:CAPITAL|SMALL) LETTER ([A-Z])"
)
MIXED = 3  # a word with more letters of two readings is read all by look, then all by sound

# Letters outside the Polish alphabet and their readings in Latin letters, by look then by
# sound (у: y and u; к: k; д: d), and by look alone (у: y; к: k; д has none), filled by
# _CharTable. Step 2 leaves these letters in the text, so that ``readings`` still sees
# which words mix them with Latin letters.
READINGS: dict[str, tuple[str, ...]] = {}
LOOKS: dict[int, str] = {}  # a str.translate table
EAST_SLAVIC = re.compile("[а-яёєіїґў]+")  # after casefold: the letters of eastern.py's words
GREEK = re.compile("[\u0370-\u03ff]")
LATIN_LETTER = re.compile("[a-z]")
NOT_LETTERS = re.compile(r"[\d@$!|€]+")
SMALL_CAPITAL = re.compile(r"(?:LATIN|MODIFIER) LETTER SMALL CAPITAL ([A-Z])")
ZEROS = re.compile("(?<!0)(?:00)+(?!0)")  # ch00j: two zeros for oo, which sounds as u
# Suko2000, chuj69, Suko77: a number after a word is no letter, when it has a digit that
# stands for no letter (2 or 6) or is one digit again and again (p0f19 is pofig)
NUMBERED = re.compile(r"(.{2,}\D)(?:(?=\d*[26])\d{2,}|(\d)\2+)")


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
            # casefold again: 𝐊 has no small form, its decomposition K has
            result = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
            if small := SMALL_CAPITAL.fullmatch(unicodedata.name(result[:1], "")):
                result = small[1].lower()  # ᴋ, ᶦ: no decomposition to a plain letter
            if not result.isascii() and unicodedata.category(char)[0] == "L":
                look, sound = latin_look(char), latin_sound(char)
                if not (EAST_SLAVIC.fullmatch(char) or GREEK.fullmatch(char)) or char in LOOKS_TOO:
                    sound = None  # ѕ, һ, ј, ω, ш: letters borrowed for their look
                if look or sound:
                    READINGS[char] = tuple(dict.fromkeys(r for r in (look, sound) if r))
                    LOOKS[code] = look or char
                    result = char
        if code < 0x10000:  # cache the first plane only: the table stays small
            self[code] = result
        return result


_TABLE = _CharTable()


class _MarkTable(dict[int, str | None]):
    """``str.translate`` table: combining marks and invisible characters dropped, other
    characters kept (before NFC: o + ◌́ is a disguised o, not the ó that reads as u)."""

    def __missing__(self, code: int) -> str | None:
        char = chr(code)
        invisible = unicodedata.category(char) in ("Mn", "Me", "Cf") or is_default_ignorable(char)
        result = None if invisible else char
        if code < 0x10000:
            self[code] = result
        return result


_MARKS = _MarkTable()


def fold_letters(text: str) -> str:
    """Steps 1 and 2 on a whole text; keeps separators, digits and symbols."""
    if not text.isascii():
        text = text.translate(_MARKS)
    if "|" in text or "\\" in text or "()" in text:
        text = drawn(text)
    return unicodedata.normalize("NFC", text.casefold()).translate(_TABLE)


def drawn(text: str) -> str:
    """Letters drawn with several characters as letters: ``|<u|_|r\\/\\/a`` -> ``kurwa``."""
    for drawing, letter in DRAWN:
        text = text.replace(drawing, letter)
    return text


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
    if not LATIN_LETTER.search(token):  # digits alone make no mix: дупель2000, 6лять
        letters = NOT_LETTERS.sub("", token)
        return [token if EAST_SLAVIC.fullmatch(letters) else token.translate(LOOKS)]
    options = [READINGS.get(char, (char,)) for char in token]
    for place, option in enumerate(options):
        if len(option) > 1:  # sрrawa: р is no r where it would double the r next to it
            around = {token[place - 1] if place else "", token[place + 1 : place + 2]}
            options[place] = option[:1] + tuple(o for o in option[1:] if o not in around)
    if sum(len(option) > 1 for option in options) <= MIXED:
        return ["".join(mix) for mix in itertools.product(*options)]
    return ["".join(option[0] for option in options), "".join(option[-1] for option in options)]


def finish(token: str) -> str:
    """Steps 3 to 5 on one token of ``fold_letters`` output, read by look."""
    return _finish(token if token.isascii() else readings(token)[0])


def finish_all(token: str) -> list[str]:
    """Steps 3 to 5 on each reading of one token of ``fold_letters`` output, look first, and
    with a run of ``o`` also read as ``u`` (``ch00j``)."""
    read = readings(token)
    if len(read) == 1:
        return _spellings(read[0])
    return list(dict.fromkeys(s for reading in read for s in _spellings(reading)))


def _spellings(token: str) -> list[str]:
    """``_finish`` of a token, and of the token with its two zeros as ``u`` (``ch00j``) and
    its doubled k as ``ck`` (``dikk``, ``cokk``)."""
    first = _finish(token)
    found = [first]
    if "00" in token and ZEROS.search(token):
        found.append(_finish(ZEROS.sub("u", token)))
    if "kk" in token:
        found.append(_finish(token.replace("kk", "ck")))
    return found


def _finish(token: str) -> str:
    if not token.isalpha():
        token = token.translate(LEET)
    if "ph" in token:
        token = token.replace("ph", "f")  # before ch -> h: pchać is no fać
    token = single(token)
    if "q" in token:
        token = single(Q_BEFORE_VOWEL.sub("k", token).replace("q", "ku"))
    for spelling, sound in SOUND_ALIKES:
        if spelling in token:
            token = single(token.replace(spelling, sound))
    return token


def single(token: str) -> str:
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


def camel_parts(chunk: str) -> list[str]:
    """A chunk as typed, cut where a capital starts a part of a nick (``KrolKurew``,
    ``MrCHUJMaly``): before a capital after a small letter, a digit or a leetspeak symbol
    (``M4ryKurwa``), or after another capital when a small letter follows in its part
    (``XMLParser``, ``DICKT€4m``; not ``SZCZYT2000``). ``[chunk]`` for a chunk with no small
    letter (``SH1T``), and unless every part has two letters or more (``kUrWa``, ``iPhone``
    stay whole); a leading ``xX`` is a part of its own (``xXKurwaXx``)."""
    rest = chunk[1:]
    if not rest or rest.islower() or not any(map(_lower, chunk)):
        return [chunk]  # no capital after the first letter, or no small letter
    cuts = [0]
    for place in range(1, len(chunk)):
        before, letter = chunk[place - 1], chunk[place]
        if not letter.isupper():
            continue
        if before in SMALL_TOO:
            if _after_small(chunk, place - 1) or _starts_small(chunk, place + 1):
                cuts.append(place)  # M4ryKurwa, and M€9@Szczyj: a small letter either side
        elif _lower(before) and not (
            before in DIACRITICS and chunk[place - 2 : place - 1].isupper()
        ):
            cuts.append(place)  # not GóWNO, 🅶ó🆆🅽🅾: no capital ó there
        elif before.isupper() and _starts_small(chunk, place + 1):
            cuts.append(place)
    if len(cuts) == 1:
        return [chunk]
    parts = [chunk[a:b] for a, b in itertools.pairwise([*cuts, len(chunk)])]
    if len(parts[0]) == 1 and _x(parts[0]) and _x(parts[1][:1]):
        parts[:2] = [parts[0] + parts[1][:1], parts[1][1:]]  # a nick's decoration: xXKurwa
        parts = [part for part in parts if part]
    if any(sum(_small(c) or c.isupper() for c in part) < 2 for part in parts):
        return [chunk]
    return parts


def _lower(char: str) -> bool:
    """Whether a character is a small letter, also in parentheses (⒦)."""
    if char.islower():
        return True
    return not char.isascii() and unicodedata.normalize("NFKC", char).strip("()").islower()


def _small(char: str) -> bool:
    """Whether a character stands for a small letter: one, a digit or a leetspeak symbol."""
    return char in SMALL_TOO or _lower(char)


def _after_small(chunk: str, place: int) -> bool:
    """Whether the digits and symbols that end at ``place`` follow a small letter (M4ryKurwa,
    Kurwa2000Maly; not SH1T)."""
    while place >= 0 and chunk[place] in SMALL_TOO:
        place -= 1
    return place >= 0 and _lower(chunk[place])


def _starts_small(chunk: str, place: int) -> bool:
    """Whether the part that goes on at ``place`` starts with a small letter or a leetspeak
    symbol and has a small letter before the next capital."""
    run = chunk[place:]
    head = run[:1]
    if not head or not (_lower(head) or head in SMALL_TOO):
        return False
    for char in run:
        if char.isupper():
            return False
        if _lower(char):
            return True
    return False


def _x(char: str) -> bool:
    return unicodedata.normalize("NFKC", char).lower() in ("x", "х", "χ")


DIACRITICS = set("ąćęłńóśźż")
CAMEL = "\x1f"  # marks where a CamelCase part starts, as a separator
SMALL_TOO = set("0123456789@$!€")  # what stands for a small letter before a capital: m4ryKurwa


class Words(NamedTuple):
    """The candidate words of a text (``split_words``), folded."""

    words: list[str]  # each token, in order: "ty", "k", "u", "r", "w", "o"
    others: list[str]  # glued back and other readings: "kurwo", "kurwa" (of kуrwa)
    # Nicks: CamelCase parts and words joined by "_" glued whole, with where each part starts:
    # matched only from the start of a part ("krolkurew", (0, 4)).
    nicks: list[tuple[str, tuple[int, ...]]]
    units: list[str]  # each chunk between spaces glued: "kurwo" (for words cut by spaces)
    phrased: list[str]  # words, but a chunk of three one-letter tokens or more glued


def split_words(text: str) -> tuple[list[str], list[str]]:
    """The folded words of ``text``, and more candidates: words that disguises had split up,
    and the other readings of words with letters of two readings.

    The second list holds each chunk between spaces glued back together
    (``k.u.r.w.a``, ``ku-rwa``) and each run of one-letter words (``k u r w a``), in every
    reading, then the other readings of the words (``kуrwa``: ``kurwa``; the first list has
    ``kyrwa``), and the parts of nicks glued whole. Numbers are no words, but their digits
    count in glued words (``j 3 b 4 c``).
    """
    found = candidates(text)
    return found.words, found.others + [nick for nick, _ in found.nicks]


def candidates(text: str) -> Words:
    """``split_words`` with the nicks apart (``Words``)."""
    words: list[str] = []
    others: list[str] = []
    nicks: list[tuple[str, tuple[int, ...]]] = []
    units: list[str] = []
    phrased: list[str] = []
    glued: list[list[str]] = []
    run: list[str] = []
    for raw in text.split():
        if raw.isalpha() and (len(raw) == 1 or raw[1:].islower()):  # a plain word: the most
            chunk = fold_letters(raw)
            if chunk.isalpha():
                if chunk.isascii():
                    word = _finish(chunk)
                    if "kk" in chunk:
                        others += _spellings(chunk)[1:]
                else:
                    read = finish_all(chunk)
                    word = read[0]
                    others += read[1:]
                words.append(word)
                units.append(word)
                phrased.append(word)
                if len(word) == 1:
                    run.append(chunk)
                else:
                    glued.append(run)
                    run = []
                continue
        if not raw.isascii():
            raw = raw.translate(_MARKS)
        if "|" in raw or "\\" in raw or "()" in raw:
            raw = drawn(raw)
        parts = camel_parts(raw)
        chunk = fold_letters(CAMEL.join(parts) if len(parts) > 1 else raw)
        found = tokens(chunk)
        if chunk.isascii():
            folded = [_finish(token) for token in found]
            others += [
                o
                for token in found
                if "00" in token or "kk" in token
                for o in _spellings(token)[1:]
            ]
        else:  # letters outside the Polish alphabet are still there: read them
            folded = []
            for token in found:
                read = finish_all(token)
                folded.append(read[0])
                others += read[1:]
        others += [finish(n[1]) for t in found if t[-1:].isdigit() and (n := NUMBERED.fullmatch(t))]
        lettered = [word for token, word in zip(found, folded, strict=True) if not token.isdigit()]
        words += lettered
        joints = _joints(chunk, found) if len(found) > 1 else []
        if joints:  # a nick: its words apart (Je_Boss, je_bać), its CamelCase parts glued
            groups = _nick_groups(found, folded, joints)
            units += ["".join(group) for group in groups]
            for group in (group for group in groups if len(group) > 1):
                starts = itertools.accumulate(len(word) for word in ["", *group[:-1]])
                nicks.append(("".join(group), tuple(starts)))
        elif lettered:
            units.append("".join(lettered))
        if len(found) > 2 and all(len(token) == 1 for token in found):
            phrased.append("".join(lettered))
        else:
            phrased += lettered
        if len(found) > 1 and not joints and not _scripts(found):
            glued.append(found)
        if len(folded) == 1 and len(folded[0]) == 1:
            run += found
        else:
            glued.append(run)
            run = []
    glued.append(run)
    joined = ("".join(tokens) for tokens in glued if len(tokens) > 1)
    glued_words = [read for word in joined if not word.isdigit() for read in finish_all(word)]
    return Words(words, glued_words + others, nicks, units, phrased)


def _scripts(found: list[str]) -> bool:
    """Whether tokens are words of two alphabets (думаю...boss): not glued into one."""
    words = [token for token in found if len(token) > 1]
    return any(EAST_SLAVIC.fullmatch(w) for w in words) and any(w.isascii() for w in words)


def _joints(chunk: str, found: list[str]) -> list[str]:
    """What joins the tokens of a chunk that is words of a nick (tokens of two letters or
    more joined by ``_`` or where a CamelCase part starts: ``_`` and ``CAMEL``), else ``[]``."""
    joints = ["_" if "_" in joint else joint for joint in WORD.split(chunk)[1:-1]]
    if all(len(token) > 1 for token in found) and set(joints) <= {"_", CAMEL}:
        return joints
    return []


def _nick_groups(found: list[str], folded: list[str], joints: list[str]) -> list[list[str]]:
    """The words of a nick between its ``_``, each a list of its CamelCase parts, less the
    decoration ``xX``: ``Big_KurWa_Xx`` -> ``[["big"], ["kur", "wa"]]``."""
    groups: list[list[str]] = [[]]
    for place, (token, word) in enumerate(zip(found, folded, strict=True)):
        if place and joints[place - 1] == "_":
            groups.append([])
        if not all(map(_x, token)):
            groups[-1].append(word)
    return [group for group in groups if group]


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
    if "*" not in text and "#" not in text:
        return found  # nothing masked (``MASK``): the most common text
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
