"""Vulgarity filter for chat messages and nicknames: pure, fast, driven by data files.

Start here::

    find_vulgarity("ty k.u.r.w.o")   # -> "kurw" (the folded stem that matched)
    find_vulgarity("dobra karta")    # -> None
    is_clean("podsłuchujący")        # -> True

How a text is checked:

1. ``fold.split_words`` folds it into a small alphabet (case, diacritics, invisible
   characters, look-alike letters by ICU's confusable skeleton as in ``skeleton.py``,
   leetspeak, ``ch``/``h`` and ``rz``/``ż`` spellings, repeated letters) and cuts it into
   words; words split up by dots or spaces (``k.u.r.w.a``, ``k u r w a``) are glued back
   as extra candidates, and so are the other readings of words that mix Latin letters with
   Cyrillic or Greek ones read by sound (``kуrwa``: у looks like y, reads as u).
2. Each candidate word is blocked when it is
   * Polish prefixes (``data/prefixes.txt``, any number of them: ``w``, ``po``, ``wy``,
     ``s``...), then a stem (``data/stems.txt``, ``data/en.txt``), then any ending - or
     only the endings listed for that stem: ``wkurwiać``, ``skurwysyn``, ``suka``;
   * or contains a stem marked ``*`` anywhere (compounds: ``oczojebny``);
   * or is a whole word of the LDNOOBW lists (``data/ldnoobw/``, copied by ``make`` from
     npm's ``naughty-words``, less ``data/ldnoobw-excluded.txt``);
   unless it is on the allow-list (``data/allow.txt``: ordinary words such as ``dowcip``
   that only contain a stem; an entry ending in ``*`` covers every word containing it).
3. Phrases (``data/phrases.txt`` and LDNOOBW's) match as whole folded words in a row.
4. A word with one or two letters masked by ``*`` or ``#`` (``k*rwa``, ``ch*j``) is tried
   with every letter in their place (``fold.unmasked``).

The stems, prefixes and phrases are compiled into three regexes (tries, so a word
costs one test per letter, not one per stem): about 2 µs a word, 30 µs a message.
Without ``data/ldnoobw/`` the filter works on the hand-made lists alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from .fold import fold_word, split_words, unmasked

__all__ = ["DATA", "WordFilter", "find_vulgarity", "fold_word", "is_clean", "split_words"]

DATA = Path(__file__).resolve().with_name("data")
LDNOOBW_LANGUAGES = ("pl", "en")
STEM_FILES = ("stems.txt", "en.txt")
LOOSE = {"i": "[i1]", "l": "[l1]", "w": "[wv]", "u": "[uv]"}  # folded letter -> what it matches


def read_lines(path: Path) -> list[str]:
    """The entries of a data file: one a line, ``#`` starts a note, blank lines skipped."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line]


def _atoms(text: str) -> list[str]:
    """Text of a data file -> one regex atom per folded letter.

    ``ó`` becomes ``[ou]`` (people write it both ways); ``i`` and ``l`` also match ``1``,
    the folded form of the leetspeak ``1 ! |``; ``w`` and ``u`` also match ``v``.
    """
    atoms: list[str] = []
    for number, part in enumerate(text.split("ó")):
        atoms += ["[ouv]"] if number else []
        atoms += [LOOSE.get(c, re.escape(c)) for c in fold_word(part)]
    return atoms


def _endings(text: str) -> str:
    """``a ę -`` -> ``(?:a|e|)$``: the word ends with one of them; ``ow*``: it goes on."""
    ends = {"" if e == "-" else "".join(_atoms(e)) for e in text.split() if not e.endswith("*")}
    starts = ["".join(_atoms(e[:-1])) for e in text.split() if e.endswith("*")]
    options = [*starts, f"(?:{'|'.join(sorted(ends, key=len, reverse=True))})$"] if ends else starts
    return f"(?:{'|'.join(options)})"


def _trie(entries: Iterable[tuple[list[str], str]]) -> str:
    """(atoms, regex after them) pairs -> one regex that tries them atom by atom.

    One alternation of 60 stems costs a test per stem at every place a stem may
    start; the trie costs one test per letter.
    """
    root: dict[str, Any] = {}
    for atoms, tail in entries:
        node = root
        for atom in atoms:
            node = node.setdefault(atom, {})
        node.setdefault("", set()).add(tail)

    def emit(node: dict[str, Any]) -> str:
        options = [atom + emit(child) for atom, child in node.items() if atom]
        options += sorted(node.get("", ()), reverse=True)  # "" (nothing more) last
        return options[0] if len(options) == 1 else f"(?:{'|'.join(options)})"

    return emit(root) if root else "(?!)"


class Stem:
    """One line of stems.txt: ``kurw``, ``suk: a i ę ą o``, ``*jeb``."""

    def __init__(self, line: str) -> None:
        text, _, endings = line.partition(":")
        self.inside = text.startswith("*")
        self.text = fold_word(text)
        self.atoms = _atoms(text.strip().lstrip("*"))
        self.tail = _endings(endings) if endings.strip() else ""


class WordFilter:
    """The lists of one data folder, compiled. ``find`` returns what matched, or None."""

    def __init__(self, data: Path = DATA, *, ldnoobw: bool = True) -> None:
        self.stems = [Stem(line) for name in STEM_FILES for line in read_lines(data / name)]
        prefixes = _trie((_atoms(p), "") for p in read_lines(data / "prefixes.txt"))
        self._prefixes = f"(?:{prefixes})*"
        self._start = re.compile(self._prefixes + _trie((s.atoms, s.tail) for s in self.stems))
        inside = [s for s in self.stems if s.inside]
        self._inside = re.compile(_trie((s.atoms, s.tail) for s in inside))

        allow = read_lines(data / "allow.txt")
        self._allow = {fold_word(entry) for entry in allow if not entry.endswith("*")}
        starts = [[re.escape(c) for c in fold_word(e)] for e in allow if e.endswith("*")]
        self._allow_inside = re.compile(_trie((letters, "") for letters in starts))

        self.words: set[str] = set()
        self.phrases: set[str] = set()
        self.symbols: set[str] = set()
        self._add_entries(read_lines(data / "phrases.txt"))
        self.ldnoobw: dict[str, list[str]] = {}
        excluded = set(read_lines(data / "ldnoobw-excluded.txt"))
        for language in LDNOOBW_LANGUAGES if ldnoobw else ():
            path = data / "ldnoobw" / f"{language}.json"
            if path.exists():
                self.ldnoobw[language] = json.loads(path.read_text("utf-8"))
                self._add_entries(e for e in self.ldnoobw[language] if e not in excluded)
        phrases = _trie(([re.escape(c) for c in phrase], "") for phrase in self.phrases)
        self._phrases = re.compile(rf"(?<!\S){phrases}(?!\S)")

    def _add_entries(self, entries: Iterable[str]) -> None:
        for entry in entries:
            words, _ = split_words(entry)
            if not words:
                self.symbols.add(entry)
            elif len(words) == 1:
                self.words.add(words[0])
            else:
                self.phrases.add(" ".join(words))

    def allowed(self, word: str) -> bool:
        """Whether a folded word is an ordinary one on the allow-list."""
        return word in self._allow or self._allow_inside.search(word) is not None

    def _stem_of(self, word: str) -> str:
        """Which stem a word that ``_start`` or ``_inside`` matched has (asked on hits only)."""
        for stem in self.stems:
            regex = "".join(stem.atoms) + stem.tail
            if re.match(self._prefixes + regex, word) or (stem.inside and re.search(regex, word)):
                return stem.text
        raise AssertionError(word)

    def find_word(self, word: str) -> str | None:
        """The stem or listed word that a folded word matches, or None."""
        spellings = {word, word.replace("1", "i"), word.replace("1", "l")}  # 1 is i or l
        for spelling in spellings:
            if spelling in self.words and not self.allowed(spelling):
                return spelling
        if self._start.match(word) or self._inside.search(word):
            return None if self.allowed(word) else self._stem_of(word)
        return None

    def find(self, text: str) -> str | None:
        """What in ``text`` is vulgar (a folded stem, word or phrase), or None."""
        words, glued = split_words(text)
        for word in words + glued:
            if found := self.find_word(word):
                return found
        for word in unmasked(text):
            if found := self.find_word(word):
                return found
        if len(words) > 1 and (phrase := self._phrases.search(" ".join(words))):
            return phrase[0]
        for symbol in self.symbols:
            if symbol in text:
                return symbol
        return None


@cache
def default_filter() -> WordFilter:
    """The filter built from this package's data, on first use."""
    return WordFilter()


def find_vulgarity(text: str) -> str | None:
    """What in ``text`` is vulgar (a folded stem, word or phrase), or None when clean."""
    return default_filter().find(text)


def is_clean(text: str) -> bool:
    """Whether ``text`` (a chat message, a nickname) has nothing vulgar in it."""
    return find_vulgarity(text) is None
