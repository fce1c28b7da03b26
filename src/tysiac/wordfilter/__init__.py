"""Vulgarity filter for chat messages and nicknames: pure, fast, driven by data files.

Start here::

    find_vulgarity("ty k.u.r.w.o")   # -> "kurw" (the folded stem that matched)
    find_vulgarity("dobra karta")    # -> None
    is_clean("podsłuchujący")        # -> True

The nick check and the chat check both call ``find_vulgarity``, and take their look-alike
characters from the same place (``skeleton.py``, also behind the server's ``same_nick``).

How a text is checked:

1. ``fold.split_words`` folds it into a small alphabet (case, diacritics, invisible
   characters, look-alike letters by ICU's confusable skeleton as in ``skeleton.py``,
   leetspeak, ``ch``/``h`` and ``rz``/``ż`` spellings, ``q``, repeated letters) and cuts it
   into words; words split up by dots or spaces (``k.u.r.w.a``, ``k u r w a``) are glued
   back as extra candidates, and so are the other readings of words that mix Latin letters
   with Cyrillic or Greek ones read by sound (``kуrwa``: у looks like y, reads as u).
2. Each candidate word is blocked when it is
   * Polish prefixes (``data/prefixes.txt``, any number of them: ``w``, ``po``, ``wy``,
     ``s``...), then a stem (``data/stems.txt``, ``data/en.txt``), then any ending - or
     only the endings listed for that stem: ``wkurwiać``, ``skurwysyn``, ``suko``; a
     Polish stem's letters also match their misspellings by sound (``data/sounds.txt``:
     ``kurfa``, ``kurła``, ``yebać``, ``pjerdolić``, ``pizta``, ``tsipa``, ``kutaz``);
   * or contains a stem marked ``*`` anywhere (compounds: ``oczojebny``);
   * or is words glued to a stem without spaces (``data/glue.txt``: ``tychuju``,
     ``idźdodupy``, ``tysukojedna``);
   * or is a whole word of the LDNOOBW lists (``data/ldnoobw/``, copied by ``make`` from
     npm's ``naughty-words``, less ``data/ldnoobw-excluded.txt``);
   unless it is on the allow-list (``data/allow.txt``: ordinary words such as ``dowcip``
   that only contain a stem; an entry ending in ``*`` covers every word containing it).
3. Words in a row that glue into a stem and one of its endings are a word cut into pieces
   (``ku rwa``, ``pier do lić``; ``find_pieces``, bounded by ``data/pieces.txt`` so that
   ``dam ci pana`` and ``ja je bez soli`` stay clean).
4. A word with one or two letters masked by ``*`` or ``#`` (``k*rwa``, ``ch*j``) is tried
   with every letter in their place (``fold.unmasked``); one with more (``k***a``),
   masked at its end (``kurw*``) or by dots (``k...a``) is compared with the words of
   ``data/masked.txt``.
5. Words whose fold is an ordinary Polish word are matched as spelled, doubled letters
   doubled (``data/spelled.txt``: ``faggot``, not ``fagot``, a bassoon).
6. Phrases (``data/phrases.txt`` and LDNOOBW's) match as whole folded words in a row.
7. Ukrainian and Russian words, in Cyrillic, in Latin letters or in a mix of both
   (``хуйня``, ``pizdec``, ``з'їбав``, ``cуkа``), are matched by ``eastern.py`` on a fold
   of their own, with the stems, prefixes and allow-list of ``data/eastern*.txt``: read by
   sound into Polish letters they would hit Polish stems by the thousand (``fold.py``).

The stems, prefixes and phrases are compiled into a few regexes (tries, so a word costs
one test per letter, not one per stem): a few µs a word, 15-40 µs a message.
Without ``data/ldnoobw/`` the filter works on the hand-made lists alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from .eastern import EasternFilter
from .fold import fold_word, mask_patterns, plain, split_words, unmasked

__all__ = ["DATA", "WordFilter", "find_vulgarity", "fold_word", "is_clean", "split_words"]

DATA = Path(__file__).resolve().with_name("data")
LDNOOBW_LANGUAGES = ("pl", "en")
PIECE = 6  # a piece of a cut-up word has at most this many letters: "pier dolę", "ku rwa"
PIECES = 4  # and a cut-up word at most this many pieces: "wy pier da lać"
LOOSE = {"i": "[i1]", "l": "[l1]", "w": "[wv]", "u": "[uv]"}  # folded letter -> what it matches


def read_lines(path: Path) -> list[str]:
    """The entries of a data file: one a line, ``#`` starts a note, blank lines skipped."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line]


def read_fields(path: Path) -> dict[str, str]:
    """A data file of ``name: words`` fields; a line without ``:`` goes on the field above."""
    fields: dict[str, str] = {}
    name = ""
    for line in read_lines(path):
        if ":" in line:
            name, _, line = line.partition(":")
        fields[name] = f"{fields.get(name, '')} {line}"
    return fields


Sounds = dict[str, list[str]]  # a folded spelling ("w", "zd", "s$") -> its misspellings


def read_sounds(path: Path) -> Sounds:
    """``data/sounds.txt``: ``w: f l`` -> {"w": ["f", "l"]}."""
    sounds: Sounds = {}
    for line in read_lines(path):
        spelling, _, others = line.partition(":")
        sounds[spelling.strip()] = others.split()
    return sounds


def _letter(c: str) -> str:
    return LOOSE.get(c, re.escape(c))


def _sounded(folded: str, sounds: Sounds) -> list[str]:
    """A folded stem -> its atoms, each spelling of ``sounds`` also matching its misspellings
    (``kurw`` -> ``k u r (?:[wv]|f|l)``). The longest spelling at a place wins."""
    atoms: list[str] = []
    place = 0
    while place < len(folded):
        for size in (2, 1):
            spelling = folded[place : place + size]
            at_end = place + size == len(folded)
            others = sounds.get(spelling, []) + (sounds.get(spelling + "$", []) if at_end else [])
            if len(spelling) == size and others:
                options = ["".join(map(_letter, spelling))]
                options += ["".join(map(_letter, other)) for other in others]
                atoms.append(f"(?:{'|'.join(dict.fromkeys(options))})")
                place += size
                break
        else:
            atoms.append(_letter(folded[place]))
            place += 1
    return atoms


def _atoms(text: str, sounds: Sounds | None = None) -> list[str]:
    """Text of a data file -> one regex atom per folded letter.

    ``ó`` becomes ``[ou]`` (people write it both ways); ``i`` and ``l`` also match ``1``,
    the folded form of the leetspeak ``1 ! |``; ``w`` and ``u`` also match ``v``. With
    ``sounds`` (stems only), a letter also matches its misspellings by sound.
    """
    atoms: list[str] = []
    for number, part in enumerate(text.split("ó")):
        atoms += ["[ouv]"] if number else []
        atoms += _sounded(fold_word(part), sounds or {})
    return atoms


def _endings(text: str, sounds: Sounds | None = None, end: str = "$") -> str:
    """``a ę -`` -> ``(?:a|e|)$``: the word ends with one of them; ``ow*``: it goes on.

    ``end`` is what comes after an ending: the end of the word, or also glued words."""
    split = text.split()
    ends = {"" if e == "-" else "".join(_atoms(e, sounds)) for e in split if not e.endswith("*")}
    starts = ["".join(_atoms(e[:-1], sounds)) for e in split if e.endswith("*")]
    ending = f"(?:{'|'.join(sorted(ends, key=len, reverse=True))}){end}"
    options = [*starts, ending] if ends else starts
    return f"(?:{'|'.join(options)})"


def _spelled(entry: str) -> str:
    """``faggot`` -> ``(?<![a-z])f+a+g{2,}o+t+``: each letter repeated at will, but a
    doubled one at least twice."""
    runs = (match[0] for match in re.finditer(r"(.)\1*", entry))
    return "(?<![a-z])" + "".join(re.escape(r[0]) + ("{2,}" if len(r) > 1 else "+") for r in runs)


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

    def __init__(self, line: str, sounds: Sounds, glued: str) -> None:
        text, _, endings = line.partition(":")
        self.inside = text.startswith("*")
        self.text = fold_word(text)
        self.atoms = _atoms(text.strip().lstrip("*"), sounds)  # misspellings too: kurfa
        self.tail = _endings(endings, sounds) if endings.strip() else ""
        # Cut into pieces (``find_pieces``): an ending that goes on (``ow*``) goes on with
        # a common ending only; filled in by WordFilter.
        self.endings = endings.split()
        self.sounds = sounds
        self.cut_tail = ""
        # In a run of glued words ("tysukojedna"): its ending, then maybe glued words.
        self.glued_tail = _endings(endings, sounds, f"(?:{glued})*$") if endings.strip() else ""


class WordFilter:
    """The lists of one data folder, compiled. ``find`` returns what matched, or None."""

    def __init__(self, data: Path = DATA, *, ldnoobw: bool = True) -> None:
        sounds = read_sounds(data / "sounds.txt")  # Polish misspellings: for Polish stems only
        glue = read_lines(data / "glue.txt")
        before = _trie((_atoms(word), "") for word in glue if not word.startswith("+"))
        after = _trie((_atoms(word[1:]), "") for word in glue if word.startswith("+"))
        self.stems = [Stem(line, sounds, after) for line in read_lines(data / "stems.txt")]
        self.stems += [Stem(line, {}, after) for line in read_lines(data / "en.txt")]
        prefixes = _trie((_atoms(p), "") for p in read_lines(data / "prefixes.txt"))
        self._prefixes = f"(?:{prefixes})*"
        # A word: glued words ("tychuju", "kutasajeden"), prefixes, a stem and its ending,
        # glued words; each glued word may be missing (kurwa, wkurwiać).
        self._glue = f"(?:{before})*"
        glued = _trie((s.atoms, s.glued_tail) for s in self.stems)
        self._glued = re.compile(self._glue + self._prefixes + glued)
        # Cut-up words ("ku rwa"): the stem and its ending, or a common ending, to the end.
        cut = read_fields(data / "pieces.txt")
        ending = _endings(cut["endings"])
        for stem in self.stems:
            closed = [e for e in stem.endings if not e.endswith("*")]
            goes_on = [e[:-1] for e in stem.endings if e.endswith("*")]
            options = ["".join(_atoms(e, stem.sounds)) + ending for e in goes_on]
            options += [_endings(" ".join(closed), stem.sounds)] if closed else []
            stem.cut_tail = f"(?:{'|'.join(options)})" if options else ""
        pieces = _trie((s.atoms, s.cut_tail or ending) for s in self.stems)
        self._pieces = re.compile(f"(?:{prefixes}){{0,2}}" + pieces)  # not w+od+nad+u+dyma...
        self._piece_ending = ending
        self.unglued = {fold_word(word) for word in cut["unglued"].split()}
        self.common = {fold_word(word) for word in cut["common"].split()}
        self.never = {fold_word(word) for word in cut["never"].split()}
        self.eastern = EasternFilter(data)
        inside = [s for s in self.stems if s.inside]
        self._inside = re.compile(_trie((s.atoms, s.tail) for s in inside))

        self.masked = [plain(word) for word in read_lines(data / "masked.txt")]
        spelled = set(read_lines(data / "spelled.txt"))  # not folded: LDNOOBW's are left out
        self._spelled = re.compile("|".join(map(_spelled, sorted(spelled))) or "(?!)")
        self.spelled = {fold_word(entry) for entry in spelled}  # looked for first: fagot
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
                entries = self.ldnoobw[language]
                self._add_entries(e for e in entries if e not in excluded and e not in spelled)
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
        """Which stem a word that ``_glued``, ``_inside`` or ``_pieces`` matched has (asked
        on hits only)."""
        for stem in self.stems:
            regex = "".join(stem.atoms) + stem.tail
            if re.match(self._prefixes + regex, word) or (stem.inside and re.search(regex, word)):
                return stem.text
            glued = "".join(stem.atoms) + stem.glued_tail
            if re.match(self._glue + self._prefixes + glued, word):
                return stem.text
            cut = "".join(stem.atoms) + (stem.cut_tail or self._piece_ending)
            if re.match(self._prefixes + cut, word):
                return stem.text  # a cut-up word
        raise AssertionError(word)

    def find_word(self, word: str) -> str | None:
        """The stem or listed word that a folded word matches, or None."""
        spellings = [word]
        if "1" in word:  # 1 is i or l; "11" is ll too (b0ll0cks), one l once folded
            spellings += [fold_word(word.replace("1", "i")), fold_word(word.replace("1", "l"))]
        for spelling in spellings:
            if spelling in self.words and not self.allowed(spelling):
                return spelling
        for spelling in spellings if "11" in word else spellings[:1]:
            if self._glued.match(spelling) or self._inside.search(spelling):
                return None if self.allowed(spelling) else self._stem_of(spelling)
        return None

    def find_pieces(self, words: list[str]) -> str | None:
        """The stem that words in a row make when glued, cut up as in ``ku rwa``, or None.

        Bounded, so that ordinary words next to each other do not glue into a hit: pieces
        of at most ``PIECE`` letters, at most ``PIECES`` of them, that glue into prefixes, a
        stem and one of its endings that end a word (a stem without endings: a common
        ending of ``data/pieces.txt``), from their first letter to their last (``ja je bez
        soli`` is not ``jebez``, ``pędzi owce`` not ``pedziowce``); a short word of
        ``data/pieces.txt`` starts one only before a piece of at most three letters that is
        not a common word (``ci pa`` is cipa, ``dam ci pana`` and ``ci po razie`` are not),
        and some words start none (``twój ruch, Ala`` is no ``ruchała``).
        """
        for first in range(len(words) - 1):
            glued = words[first]
            after = words[first + 1]
            if glued in self.never:
                continue  # "twój ruch, Ala" is no ruchała
            if glued in self.unglued and (len(after) > 3 or after in self.common):
                continue  # "ci pa" is cipa, "ci pana" and "ci po" are no cipa
            for word in words[first + 1 : first + PIECES]:
                if len(word) > PIECE or len(glued) > PIECE * PIECES:
                    break
                junction = glued[-1] + word[0]
                glued += word
                if junction in ("ch", "rz") or junction[0] == junction[1]:
                    glued = fold_word(glued)  # "ruc hać": ch is h
                if self.allowed(glued):
                    continue
                if self._pieces.match(glued):
                    return self._stem_of(glued)
                if words[first] not in self.common and len(glued) > 3 and glued in self.words:
                    return glued  # "ni gge r", not "a hole in the wall"
        return None

    def find(self, text: str) -> str | None:
        """What in ``text`` is vulgar (a folded stem, word or phrase), or None."""
        words, glued = split_words(text)
        for word in words + glued:
            if found := self.find_word(word):
                return found
        if len(words) > 1 and (found := self.find_pieces(words)):
            return found
        for word in unmasked(text):
            if found := self.find_word(word):
                return found
        folded = words + glued
        if any(f in word for f in self.spelled for word in folded) and (
            spelled := self._spelled.search(plain(text))
        ):
            return spelled[0]
        if found := self.eastern.find(text):
            return found
        if "*" in text or "#" in text or ".." in text:
            for pattern in mask_patterns(text):
                for word in self.masked:
                    if pattern.fullmatch(word):
                        return word
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
