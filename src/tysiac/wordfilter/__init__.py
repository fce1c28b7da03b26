"""Vulgarity filter for chat messages and nicknames: pure, fast, driven by data files.

Start here::

    find_vulgarity("ty k.u.r.w.o")   # -> "kurw" (the folded stem that matched)
    find_vulgarity("dobra karta")    # -> None
    is_clean("podsłuchujący")        # -> True

The nick check and the chat check both call ``find_vulgarity``, and take their look-alike
characters from the same place (``skeleton.py``, also behind the server's ``same_nick``).

How a text is checked:

1. ``fold.candidates`` folds it into a small alphabet (case, diacritics, marks and
   invisible characters, Unicode's compatibility forms and small capitals, look-alike
   letters by ICU's confusable skeleton as in ``skeleton.py``, leetspeak and letters drawn
   with symbols, ``ph``/``f``, ``ch``/``h`` and ``rz``/``ż`` spellings, ``q``, repeated
   letters) and cuts it into words, a nick's CamelCase parts too (``KrolKurew``); words
   split up by dots or spaces (``k.u.r.w.a``, ``k u r w a``) are glued back as extra
   candidates, and so are the other readings of words that mix Latin letters with Cyrillic
   or Greek ones read by sound (``kуrwa``: у looks like y, reads as u), of two zeros
   (``ch00j``) and of a word before a number (``Suko2000``).
2. Each candidate word is blocked when it is
   * Polish prefixes (``data/prefixes.txt``, any number of them: ``w``, ``po``, ``wy``,
     ``s``...; ``ot``, ``f``... as they sound before a voiceless consonant: ``otpierdol``,
     ``fkurwiać``), then a stem (``data/stems.txt``, ``data/en.txt``), then any ending -
     or only the endings listed for that stem: ``wkurwiać``, ``skurwysyn``, ``suko``,
     ``dyma``; a stem's letters also match their misspellings by sound
     (``data/sounds.txt``: ``kurfa``, ``kurła``, ``wiut``, ``szmato``/``smato``,
     ``yebać``, ``pjerdolić``, ``pizta``, ``tsipa``, ``kutaz``; ``data/sounds-en.txt``:
     ``fuk``, ``whor``); a ``1`` is read as ``i`` and as ``l``, the first reading that
     matches deciding (``dowc1p`` is dowcip, ``d00p1e`` dupie);
   * or is prefixes and a verb's root cut off after it (``data/cut.txt``: ``odpierd``,
     ``zasr``, ``wyruch``);
   * or contains a stem marked ``*`` anywhere, as spelled (compounds: ``oczojebny``);
   * or is words glued to a stem without spaces (``data/glue.txt``: ``tychuju``,
     ``idźdodupy``, ``tysukojedna``);
   * or is a whole word of the LDNOOBW lists (``data/ldnoobw/``, copied by ``make`` from
     npm's ``naughty-words``, less ``data/ldnoobw-excluded.txt``);
   unless it is on the allow-list (``data/allow.txt``: ordinary words such as ``dowcip``
   that only contain a stem, and their misspellings by sound, ``dofcip``; an entry ending
   in ``*`` covers every word containing it).
3. Words in a row that glue into a stem and one of its endings are a word cut into pieces
   (``ku rwa``, ``pier do lić``, ``je_bać``; ``find_pieces``, bounded by ``data/pieces.txt``
   so that ``dam ci pana`` and ``ja je bez soli`` stay clean); a nick's CamelCase parts
   glued whole the same way, from the start of a part (``KurWa``, not ``MegaDajeBoss``).
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
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from .eastern import EasternFilter
from .fold import candidates, fold_word, mask_patterns, plain, single, split_words, unmasked

__all__ = ["DATA", "WordFilter", "find_vulgarity", "fold_word", "is_clean", "split_words"]

DATA = Path(__file__).resolve().with_name("data")
LDNOOBW_LANGUAGES = ("pl", "en")
PIECE = 6  # a piece of a cut-up word has at most this many letters: "pier dolę", "ku rwa"
PIECES = 4  # and a cut-up word at most this many pieces: "wy pier da lać"
# Folded letter -> what it matches. ł never is in folded text: it stands for a 1 read as l
# (``_ones``), which is an l of a stem and never a misspelling of w (kurła).
LOOSE = {"i": "[i1]", "l": "[l1ł]", "w": "[wv]", "u": "[uv]"}
VOICELESS = "(?=[ptkfsch])"  # before a voiceless consonant, folded (ch is h, sz and cz start so)
ONES = 3  # a word with at most this many 1s is read with each as i and as l


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
        sounds[spelling.strip()] = ["" if other == "-" else other for other in others.split()]
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
                options += [re.escape(other) for other in others]  # as written: ł is no 1
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


def _allowed(entry: str, sounds: Sounds) -> list[str]:
    """An allow-list entry -> its atoms: with misspellings by sound, unless marked ``=``."""
    return _atoms(entry[1:]) if entry.startswith("=") else _atoms(entry, sounds)


def _ones(word: str) -> list[str]:
    """A folded word with each ``1`` read as ``i`` and as ``l`` (written ``ł``: see ``LOOSE``),
    in every mix, ``i`` first: ``p1erdo1`` -> ``pierdoi``, ``pierdoł``, ``płerdoi``..."""
    pieces = word.split("1")
    if len(pieces) > ONES + 1:  # too many mixes: all as i, all as l
        return [single(word.replace("1", "i")), single(word.replace("1", "ł"))]
    readings = [pieces[0]]
    for piece in pieces[1:]:
        readings = [reading + letter + piece for reading in readings for letter in "ił"]
    return list(dict.fromkeys(map(single, readings)))


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
    """One line of stems.txt: ``kurw``, ``suk: a i ę ą o``, ``*jeb``, ``=cock`` (the stem
    with no misspellings by sound, its endings with them)."""

    def __init__(self, line: str, sounds: Sounds, glued: str) -> None:
        text, _, endings = line.partition(":")
        spelled = text.strip().startswith("=")
        text = text.strip().lstrip("=")
        self.inside = text.startswith("*")
        self.text = fold_word(text)
        self.atoms = _atoms(text.lstrip("*"), {} if spelled else sounds)  # and kurfa
        self.spelled = _atoms(text.lstrip("*"))  # inside a word: as spelled
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
        english = read_sounds(data / "sounds-en.txt")
        self.stems += [Stem(line, english, after) for line in read_lines(data / "en.txt")]
        # A prefix marked "~" (as it sounds: otpierdol) only before a voiceless consonant.
        prefixes = _trie(
            (_atoms(p.rstrip("~")), VOICELESS if p.endswith("~") else "")
            for p in read_lines(data / "prefixes.txt")
        )
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
        # Prefixed verbs cut off after their root (data/cut.txt): odpierd, zasr.
        self.cut = [Stem(line, sounds, after) for line in read_lines(data / "cut.txt")]
        self._cut_prefixes = f"(?=.*[aeiouy])(?:{prefixes})+"  # a word has a vowel: not ZSRR
        self._cut = re.compile(self._cut_prefixes + _trie((s.atoms, s.tail) for s in self.cut))
        inside = [s for s in self.stems if s.inside]
        # Inside a word a stem keeps its spelling (oczojebny; dwukrotnie by sound, dfukrotnie,
        # is no fuk)
        self._inside = re.compile(_trie((s.spelled, s.tail) for s in inside))

        self.masked = [plain(word) for word in read_lines(data / "masked.txt")]
        spelled = set(read_lines(data / "spelled.txt"))  # not folded: LDNOOBW's are left out
        self._spelled = re.compile("|".join(map(_spelled, sorted(spelled))) or "(?!)")
        self.spelled = {fold_word(entry) for entry in spelled}  # looked for first: fagot
        # The allow-list in the stems' spellings by sound too (dofcipny is dowcipny), but for
        # the entries marked "=": szrama, a scar, is no srama, okutasz no okutas.
        allow = read_lines(data / "allow.txt")
        words = [_allowed(entry, sounds) for entry in allow if not entry.endswith("*")]
        self._allow = re.compile(_trie((atoms, "$") for atoms in words))
        starts = [_allowed(entry[:-1], sounds) for entry in allow if entry.endswith("*")]
        self._allow_inside = re.compile(_trie((atoms, "") for atoms in starts))

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
        """Whether a folded word is an ordinary one on the allow-list (or its misspelling by
        sound: ``dofcip``)."""
        return self._allow.match(word) is not None or self._allow_inside.search(word) is not None

    def _matches(self, word: str) -> bool:
        return bool(self._glued.match(word) or self._inside.search(word) or self._cut.match(word))

    @cached_property
    def _which(self) -> list[tuple[re.Pattern[str], bool, list[str]]]:
        """The ways a word matches a stem (prefixes and the stem, the stem inside, glued
        words, cut up, cut off), each one regex whose named group says which stem:
        (regex, searched, the stems in group order). Compiled on the first hit."""
        stems, cut = self.stems, self.cut

        def groups(tails: list[str], found: list[Stem], spelled: bool = False) -> str:
            options = (
                f"(?P<s{i}>{''.join(s.spelled if spelled else s.atoms)}{t})"
                for i, (s, t) in enumerate(zip(found, tails, strict=True))
            )
            return f"(?:{'|'.join(options)})"

        inside = [s for s in stems if s.inside]
        ways = [
            (self._prefixes + groups([s.tail for s in stems], stems), False, stems),
            (groups([s.tail for s in inside], inside, spelled=True), True, inside),
            (
                self._glue + self._prefixes + groups([s.glued_tail for s in stems], stems),
                False,
                stems,
            ),
            (
                self._prefixes + groups([s.cut_tail or self._piece_ending for s in stems], stems),
                False,
                stems,
            ),
            (self._cut_prefixes + groups([s.tail for s in cut], cut), False, cut),
        ]
        return [
            (re.compile(regex), search, [s.text for s in found]) for regex, search, found in ways
        ]

    def _stem_of(self, word: str) -> str:
        """Which stem a word that ``_glued``, ``_inside``, ``_pieces`` or ``_cut`` matched has
        (asked on hits only)."""
        for regex, search, texts in self._which:
            if (found := regex.search(word) if search else regex.match(word)) and found.lastgroup:
                return texts[int(found.lastgroup[1:])]
        raise AssertionError(word)

    def find_word(self, word: str) -> str | None:
        """The stem or listed word that a folded word matches, or None."""
        if "1" in word:  # 1 is i or l; "11" is ll too (b0ll0cks), one l once folded
            return self._find_ones(word)
        if word in self.words and not self.allowed(word):
            return word
        if self._matches(word):
            return None if self.allowed(word) else self._stem_of(word)
        return None

    def _find_ones(self, word: str) -> str | None:
        """A word with a 1 or more: the first of its readings (``_ones``) that matches a stem
        decides (dowc1p is dowcip, allowed; d00p1e is dupie, not duple; p1ierdol is pierdol)."""
        if word in self.words and not self.allowed(word):
            return word  # 2g1c
        for reading in _ones(word):
            if (spelled := reading.replace("ł", "l")) in self.words and not self.allowed(spelled):
                return spelled
            if self._matches(reading):
                return None if self.allowed(reading) else self._stem_of(reading)
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
            start, after = (w.replace("1", "i") for w in words[first : first + 2])  # c1: ci
            if start in self.never:
                continue  # "twój ruch, Ala" is no ruchała
            if start in self.unglued and (len(after) > 3 or after in self.common):
                continue  # "ci pa" is cipa, "ci pana" and "ci po" are no cipa
            if len(glued) == 1 and first and len(words[first - 1]) == 1:
                continue  # inside a word spelt out (f o c h u j e), which is glued whole
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

    def find_nick(self, whole: str, starts: tuple[int, ...]) -> str | None:
        """The stem in the CamelCase parts of a nick glued whole (``kurwa``, parts at 0 and 3)
        that starts where a part starts and ends the nick as a word cut up would (a stem and
        one of its endings or a common one, ``find_pieces``): ``KurWa`` is kurwa; neither
        ``MegaDajeBoss`` nor ``JeBoss`` has a ``jeb``."""
        for start in starts:
            rest = whole[start:]
            if self._pieces.match(rest) and not self.allowed(rest) and not self.allowed(whole):
                return self._stem_of(rest)
        return None

    def find(self, text: str) -> str | None:
        """What in ``text`` is vulgar (a folded stem, word or phrase), or None."""
        found_words = candidates(text)
        words, glued = found_words.words, found_words.others
        for word in words + glued:
            if found := self.find_word(word):
                return found
        for whole, starts in found_words.nicks:
            if found := self.find_nick(whole, starts):
                return found
        units = found_words.units
        if len(units) > 1 and (found := self.find_pieces(units)):
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
        phrased = found_words.phrased
        if len(phrased) > 1 and (phrase := self._phrases.search(" ".join(phrased))):
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
