"""Ukrainian and Russian vulgarities: in Cyrillic, in Latin letters, and in mixes of both.

Start here::

    EasternFilter().find("заїбав")      # -> "їб" (the stem as data/eastern.txt writes it)
    EasternFilter().find("ну pizdec")   # -> "пізд"
    EasternFilter().find("рахуй очки")  # -> None ("count the points!")

The Polish stems (``stems.txt``) are matched on text folded to Latin letters. Ukrainian and
Russian words are not: read by sound they would hit Polish stems by the thousand (see
``fold.readings``), and their own vulgar roots are short (хуй, бля, еб) and sit inside
ordinary words (рахуй, count!; рубля, of a rouble; себе, oneself). So they have lists and
a fold of their own, and ``WordFilter.find`` asks this filter too:

1. ``eastern_words`` folds a text: case, marks and invisible characters as
   ``fold.fold_letters`` (Cyrillic letters are kept), ``ё`` and ``є`` as ``е``, ``ґ`` as
   ``г``, the soft sign dropped, an apostrophe between letters as the hard sign
   (``з'їбав`` -> ``зъїбав``, ``s'ebat`` -> ``sъebat``), ``|`` as a separator, runs of one
   letter as one (``хууууй``). Latin letters and digits stay as they are: no ``ch`` ->
   ``h`` here, for ``ч`` is written ``ch`` in Latin letters. Words split up by separators
   or spaces (``х.у.й``, ``б л я д ь``) are glued back, as ``fold.split_words`` does.
2. Each stem of ``data/eastern.txt`` is written in Cyrillic, and each of its letters
   matches itself and what ``data/eastern-letters.txt`` lists for it: Latin
   transliterations (х: h kh ch), digits (б: 6, з: 3), each Latin letter in them also as
   its leetspeak digits (ya: y[a4@]); in a word with a Cyrillic letter, Latin look-alikes
   too (х: x, у: y, р: p). One stem catches ``хуйня``, ``huinya``, ``xyйня``. A word that
   mixes the two alphabets is also read all in Latin letters by look (``рizdес``).
3. A word is blocked when it is prefixes (``data/eastern-prefixes.txt``: на, по, за, від,
   роз...; one that ends in a consonant only before a consonant or the hard sign:
   ``съебать``, not ``себе``, nor before a digit written for a vowel: ``z38yś`` is żebyś),
   a stem (marked ``^``: no prefixes), and any ending or one of the stem's endings; a stem
   marked ``~`` only in a word with a Cyrillic letter (``сука``: Polish ``suka`` is a female
   dog, ``cyka`` ticks); unless the word is on ``data/eastern-allow.txt``, also read with
   its digits as letters (``hu1ajnoga`` is hulajnoga).
4. A word with one or two letters masked (``х*й``, ``п**дец``, ``bl*at``) is tried with
   every Cyrillic (or Latin) letter in their place; longer masks are ``data/masked.txt``'s
   business.

Pure and deterministic; a word costs one regex match (two if it mixes the alphabets).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .fold import fold_letters, masked_fills, tokens
from .skeleton import latin_look

DATA = Path(__file__).resolve().with_name("data")

# What the fold does to single Cyrillic letters: ё and є read as е, ґ as г, the soft sign
# is dropped (блядь, блять; пиздець).
LETTERS = str.maketrans({"ё": "е", "є": "е", "ґ": "г", "ь": None})
APOSTROPHE = re.compile(r"(?<=[^\W\d_])['’ʼ`](?=[^\W\d_])")  # з'їбав, під’їбати
REPEATS = re.compile(r"([^1])\1+")  # "11" may be "il", as in mud1l4
CYRILLIC = re.compile("[\u0400-\u0429\u042b-\u0449\u044b-\u04ff]")  # not ъ: don't
# Masked letters are filled with these (the letters of the fold).
ALPHABET = "абвгдежзийклмнопрстуфхцчшщъыэюяії"
LATIN = "abcdefghijklmnopqrstuvwxyz"
# Vowels that a prefix ending in a consonant may not stand before (с+ебать would be
# себе): Russian writes the hard sign there (съебать), Ukrainian an apostrophe (з'їбав).
VOWELS = "аеиоуыэюяіaeiou3401!@€"  # and the digits and symbols written for vowels: z38ys


LATIN_LETTER = re.compile("[a-z]")
DIGITS = re.compile("[0-9@$!€]")
UNLEET = str.maketrans("034@5$789!€", "oeaasstbgie")


class _LatinLooks(dict[int, str]):
    """``str.translate`` table: a Cyrillic letter -> the Latin letter it looks like (ICU's
    confusable skeleton, as for nicks: р -> p, у -> y, і -> i), or itself."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        look = latin_look(char) if CYRILLIC.match(char) else None
        self[code] = result = look if look and len(look) == 1 else char
        return result


LATIN_LOOKS = _LatinLooks()


def read_lines(path: Path) -> list[str]:
    """The entries of a data file: one a line, ``#`` starts a note, blank lines skipped."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line]


def fold(token: str) -> str:
    """One token of ``fold_letters`` output (no spaces) in the eastern fold."""
    return _fold(_apostrophes(token))


def _apostrophes(text: str) -> str:
    if "'" in text or "’" in text or "ʼ" in text or "`" in text:
        return APOSTROPHE.sub("ъ", text)
    return text


def _fold(token: str) -> str:
    """``fold`` with the apostrophes done: the soft sign, ё, runs of one letter."""
    if not token.isascii():
        token = token.translate(LETTERS)
    return REPEATS.sub(_first, token) if REPEATS.search(token) else token


def _first(match: re.Match[str]) -> str:
    return match[1]


def eastern_words(text: str) -> list[str]:
    """The words of ``text`` in the eastern fold, then the words that separators had split
    up glued back: ``"ну х.у.й"`` -> ``["ну", "х", "у", "й", "хуй"]``."""
    folded = _apostrophes(fold_letters(text))
    if folded.isalpha():  # one word of letters, the most common text: nothing to glue
        word = _fold(folded)
        return [word] if word else []
    words: list[str] = []
    glued: list[str] = []
    run: list[str] = []
    for chunk in folded.split():
        found = [
            _fold(token) for token in tokens(chunk.replace("|", ".") if "|" in chunk else chunk)
        ]
        found = [word for word in found if word]
        if not found:
            continue  # a soft sign alone: ш л ь о н д р а
        words += [word for word in found if not word.isdigit()]
        if len(found) > 1:
            glued.append("".join(found))
        if len(found) == 1 and len(found[0]) == 1:
            run += found
        else:
            if len(run) > 1:
                glued.append("".join(run))
            run = []
    if len(run) > 1:
        glued.append("".join(run))
    return words + [_fold(word) for word in glued if not word.isdigit()]


def _trie(entries: Iterable[tuple[list[str], str]]) -> str:
    """(atoms, regex after them) pairs -> one regex that tries them atom by atom."""
    root: dict[str, Any] = {}
    for letters, tail in entries:
        node = root
        for atom in letters:
            node = node.setdefault(atom, {})
        node.setdefault("", {})[tail] = {}

    def emit(node: dict[str, Any]) -> str:
        options = [atom + emit(child) for atom, child in node.items() if atom]
        options += sorted(node.get("", {}), reverse=True)  # "" (nothing more) last
        return options[0] if len(options) == 1 else f"(?:{'|'.join(options)})"

    return emit(root) if root else "(?!)"


Letters = dict[str, list[str]]  # a letter -> its other spellings


class Spellings:
    """``data/eastern-letters.txt``: how each letter of a stem may be written, in words all in
    Latin letters (``latin``) and in words with a Cyrillic letter (``looks``)."""

    def __init__(self, path: Path) -> None:
        self.latin: Letters = {}
        self.looks: Letters = {}
        for line in read_lines(path):
            letter, _, others = line.partition(":")
            spelled, _, looking = others.partition("|")
            letter = letter.strip()
            if letter.isascii():  # a Latin letter: inside every spelling, its own class
                self.latin[letter] = self.looks[letter] = [letter, *spelled.split()]
            else:
                self.latin[letter] = spelled.split()
                self.looks[letter] = spelled.split() + looking.split()

    def atoms(self, text: str, *, looks: bool) -> list[str]:
        """Text of a data file -> one regex atom per letter: the letter and its other
        spellings (``looks``: also its look-alikes), each Latin letter in them also as its
        digits (``я`` -> ``(?:y[a4@]|...|я)``). Unlike the text, a stem keeps its ``ё``
        (``ёб`` is also ``yob``, ``еб`` is not)."""
        table = self.looks if looks else self.latin
        found = []
        for letter in REPEATS.sub(r"\1", text.lower().replace("ь", "")):
            spellings = [letter] if letter.isascii() else [letter, *table.get(letter, [])]
            regexes = sorted({self._spelled(s, table) for s in spellings}, key=lambda r: -len(r))
            found.append(regexes[0] if len(regexes) == 1 else f"(?:{'|'.join(regexes)})")
        return found

    @staticmethod
    def _spelled(spelling: str, table: Letters) -> str:
        parts = []
        for char in spelling:
            chars = table.get(char, [char]) if char.isascii() else [char]
            escaped = "".join(re.escape(c) for c in chars)
            parts.append(escaped if len(chars) == 1 else f"[{escaped}]")
        return "".join(parts)

    def endings(self, text: str, *, looks: bool) -> str:
        """``- д* т*`` -> a regex: the word ends there, or goes on with д or т; ``""`` for
        no endings (the stem and then anything)."""
        if not text.strip():
            return ""
        closed = [e for e in text.split() if not e.endswith("*")]
        goes_on = [e[:-1] for e in text.split() if e.endswith("*")]
        options = ["".join(self.atoms(e, looks=looks)) for e in goes_on]
        ends = ["" if e == "-" else "".join(self.atoms(e, looks=looks)) for e in closed]
        if ends:
            options.append(f"(?:{'|'.join(sorted(ends, key=len, reverse=True))})$")
        return f"(?:{'|'.join(options)})"


class Stem:
    """One line of eastern.txt: ``пізд``, ``~сук: а и о``, ``^бля: - д* т*``."""

    def __init__(self, line: str, spellings: Spellings) -> None:
        text, _, endings = line.partition(":")
        text = text.strip()
        self.cyrillic_only = "~" in text[:2]
        self.bare = "^" in text[:2]  # no prefixes
        self.text = text.lstrip("~^")
        # In a word with a Cyrillic letter, its letters also match their look-alikes.
        self.atoms = spellings.atoms(self.text, looks=True)
        self.tail = spellings.endings(endings, looks=True)
        self.latin_atoms = spellings.atoms(self.text, looks=False)
        self.latin_tail = spellings.endings(endings, looks=False)


class EasternFilter:
    """The eastern lists of one data folder, compiled. ``find`` returns the stem, or None."""

    def __init__(self, data: Path = DATA) -> None:
        spellings = Spellings(data / "eastern-letters.txt")
        self.stems = [Stem(line, spellings) for line in read_lines(data / "eastern.txt")]
        prefixes = read_lines(data / "eastern-prefixes.txt")
        self._prefixes = self._prefix_regex(prefixes, spellings, latin=False)
        self._latin_prefixes = self._prefix_regex(prefixes, spellings, latin=True)
        self._any = self._compile(self.stems, self._prefixes, latin=False)
        latin = [stem for stem in self.stems if not stem.cyrillic_only]
        self._latin = self._compile(latin, self._latin_prefixes, latin=True)
        allow = read_lines(data / "eastern-allow.txt")
        self._allow = {fold(entry.lower()) for entry in allow if not entry.endswith("*")}
        inside = [re.escape(fold(entry[:-1].lower())) for entry in allow if entry.endswith("*")]
        self._allow_inside = re.compile("|".join(inside) or "(?!)")

    @staticmethod
    def _compile(stems: list[Stem], prefixes: str, *, latin: bool) -> re.Pattern[str]:
        """Prefixes and a stem, or a stem marked ``^``, then the stem's endings."""

        def trie(bare: bool) -> str:
            return _trie(
                (s.latin_atoms, s.latin_tail) if latin else (s.atoms, s.tail)
                for s in stems
                if s.bare == bare
            )

        return re.compile(f"(?:{prefixes}{trie(False)}|{trie(True)})")

    @staticmethod
    def _prefix_regex(prefixes: list[str], spellings: Spellings, *, latin: bool) -> str:
        """Any number of prefixes. One that ends in a consonant, or is marked ``!``, does
        not stand before a vowel (с+ебать would be себе, ни+ебал Polish niebal...); in Latin
        letters one that ends in ``и`` not before ``e`` (Polish ziębnąć is no зі+еб...)."""
        entries = []
        for line in prefixes:
            prefix = line.rstrip("!")
            tail = ""
            if line.endswith("!") or fold(prefix)[-1] not in "аеиоуыэюяіїъ":
                tail = f"(?:ъ|(?![{VOWELS}]))"
            elif latin and fold(prefix)[-1] in "иії":
                tail = "(?!e)"
            entries.append((spellings.atoms(prefix, looks=not latin), tail))
        return f"(?:{_trie(entries)})*"

    def allowed(self, word: str) -> bool:
        """Whether a folded word is an ordinary one on the allow-list, also read with its
        digits and symbols as letters, ``1`` as ``i`` or as ``l`` (``hu1ajnoga``)."""
        if word in self._allow or self._allow_inside.search(word) is not None:
            return True
        if not DIGITS.search(word):
            return False
        read = word.translate(UNLEET)
        return any(
            spelled in self._allow or self._allow_inside.search(spelled) is not None
            for spelled in (_fold(read.replace("1", "i")), _fold(read.replace("1", "l")))
        )

    def find_word(self, word: str) -> str | None:
        """The stem that one word of ``eastern_words`` has, or None. A word that mixes
        Latin and Cyrillic letters is also read all in Latin letters by look (рizdес)."""
        cyrillic = CYRILLIC.search(word) is not None
        if cyrillic and LATIN_LETTER.search(word):
            latin = word.translate(LATIN_LOOKS)
            if not CYRILLIC.search(latin) and (found := self.find_word(latin)):
                return found
        if not (self._any if cyrillic else self._latin).match(word) or self.allowed(word):
            return None
        for stem in self.stems:  # which one: asked on hits only
            if cyrillic:
                prefixes, regex = self._prefixes, "".join(stem.atoms) + stem.tail
            elif stem.cyrillic_only:
                continue
            else:
                prefixes = self._latin_prefixes
                regex = "".join(stem.latin_atoms) + stem.latin_tail
            if re.match(regex if stem.bare else prefixes + regex, word):
                return stem.text
        raise AssertionError(word)

    def find(self, text: str) -> str | None:
        """The stem of the first vulgar Ukrainian or Russian word in ``text``, or None."""
        for word in eastern_words(text):
            if found := self.find_word(word):
                return found
        if "*" in text or "#" in text:
            for chunk in text.split():
                letters = ALPHABET if CYRILLIC.search(chunk) else LATIN
                for filled in masked_fills(chunk, letters):
                    for word in eastern_words(filled):
                        if found := self.find_word(word):
                            return found
        return None
