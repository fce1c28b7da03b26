"""The filter's test corpora: files under data/, and disguised vulgar forms made from them.

- vulgar: ``vulgar-base.txt`` (Polish, every family of the policy in many inflected and
  derived forms) and ``vulgar-base-en.txt`` (English), each form in every disguise of
  ``DISGUISES``; the hand-made forms of ``REAL_WORLD``, checked as written, one category
  a file (misspellings by sound, words cut into pieces, glued into runs of words,
  abbreviations, English);
- vulgar Ukrainian and Russian (``eastern_disguised``): ``vulgar-base-uk-ru.txt`` (in
  Cyrillic and in Latin letters) in every disguise of ``EASTERN_DISGUISES``, and the
  hand-made ``vulgar-uk-ru.txt``: all of them must be caught;
- clean: ``CLEAN`` (sentences, card-game chat in Polish, Ukrainian, Russian and English,
  names, and the traps: euphemisms, idioms, homographs used innocently, non-vulgar
  insults, mild words, in ``traps.txt`` for Polish, ``traps-uk-ru.txt`` for the roots of
  ``eastern.txt``);
- ``dictionary-vulgar.txt``: which forms of Debian's Polish dictionary are rightly blocked;
  ``dictionary-vulgar-uk.txt``: which of its Ukrainian one.

Shared by the tests and by ``bench/filter_corpus.py``. Everything is deterministic.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

DATA = Path(__file__).resolve().with_name("data")
DICTIONARY = Path("/usr/share/dict/polish")
UKRAINIAN = Path("/usr/share/dict/ukrainian")


def lines(name: str) -> list[str]:
    """A corpus file: one entry a line, lines starting with ``#`` skipped."""
    text = (DATA / name).read_text("utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def require(path: Path, reason: str) -> None:
    """Skip the test when ``path`` is missing; under CI (CI=true) fail it instead."""
    import pytest

    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing: {reason}")
        pytest.skip(f"{path} is missing ({reason})")


def dictionary_vulgar(name: str = "dictionary-vulgar.txt") -> re.Pattern[str]:
    """data/dictionary-vulgar.txt (or -uk.txt) as one regex: dictionary forms that are rightly
    blocked."""
    macros: dict[str, str] = {}
    rules = []
    for line in lines(name):
        rule = re.split(r"\s+#", line, maxsplit=1)[0]
        if match := re.fullmatch(r"(\w+) = (.*)", rule):
            macros[match[1]] = match[2]
            continue
        for name, value in macros.items():
            rule = rule.replace("{" + name + "}", value)
        rules.append(f"(?:{rule})")
    return re.compile("|".join(rules))


# Disguises: each takes a plain form (and a seeded random source) and returns it disguised.
PLAIN = str.maketrans("ąćęłńóśźż", "acelnoszz")
LEET = str.maketrans("aeiostbl", "43105781")
CYRILLIC = str.maketrans("aeopcyxk", "аеорсухк")
GREEK = str.maketrans("aeiokptu", "αειοκρτυ")
# Cyrillic letters for the Latin ones they read as, not look like: kуrwa, cуkа.
CYRILLIC_SOUNDS = str.maketrans("urs", "урс")
SOUNDS = (("ch", "h"), ("ó", "u"), ("ż", "rz"), ("rz", "ż"), ("w", "v"), ("ku", "q"), ("u", "ó"))
Disguise = Callable[[str, random.Random], str]


def _sound_swap(form: str, _: random.Random) -> str:
    for spelling, sound in SOUNDS:
        if spelling in form:
            return form.replace(spelling, sound, 1)
    return form.upper()


def _one_leet(form: str, rng: random.Random) -> str:
    places = [i for i, c in enumerate(form) if c in "aeiost"]
    if not places:
        return form.translate(LEET)
    i = rng.choice(places)
    return form[:i] + form[i].translate(LEET) + form[i + 1 :]


def _repeats(form: str, rng: random.Random) -> str:
    return "".join(c * rng.choice((1, 1, 2, 3)) for c in form)


def _masked(form: str, rng: random.Random) -> str:
    """One inner letter hidden by a star, as in k*rwa."""
    if len(form) < 3:
        return form
    i = rng.randrange(1, len(form) - 1)
    return form[:i] + "*" + form[i + 1 :]


def _alternating(form: str, _: random.Random) -> str:
    return "".join(c.upper() if i % 2 else c for i, c in enumerate(form))


def _pieces(form: str, rng: random.Random) -> str:
    """Cut into pieces of two or three letters by spaces, as in "ku rwa", "pier do lić"."""
    if len(form) < 4:
        return form
    pieces, rest = [], form
    while len(rest) > 3:
        size = rng.choice((2, 3))
        pieces.append(rest[:size])
        rest = rest[size:]
    if len(rest) < 2:  # no piece of one letter: the last one takes it
        pieces[-1] += rest
    else:
        pieces.append(rest)
    return " ".join(pieces)


# Misspellings by sound (issue 16): each applied once, at its first place in a form.
PHONETIC = (
    ("ch", "h"),
    ("(?<!c)h", "ch"),
    ("ó", "u"),
    ("u", "ó"),
    ("w", "f"),
    ("j", "y"),
    ("i(?=[aeou])", "j"),
    ("w", "ł"),
    ("zd", "zt"),
    ("c(?![hz])", "ts"),
    ("k", "q"),
    ("s$", "z"),
)


def _phonetic(form: str, rng: random.Random) -> str:
    swaps = [(a, b) for a, b in PHONETIC if re.search(a, form)]
    if not swaps:
        return form
    spelling, sound = rng.choice(swaps)
    return re.sub(spelling, sound, form, count=1)


DISGUISES: dict[str, Disguise] = {
    "plain": lambda f, _: f,
    "upper": lambda f, _: f.upper(),
    "title": lambda f, _: f.title(),
    "alternating": _alternating,
    "no diacritics": lambda f, _: f.translate(PLAIN),
    "leet": lambda f, _: f.translate(PLAIN).translate(LEET),
    "one leet letter": _one_leet,
    "spaces": lambda f, _: " ".join(f),
    "dots": lambda f, _: ".".join(f),
    "hyphens": lambda f, _: "-".join(f),
    "underscores": lambda f, _: "_".join(f),
    "zero-width": lambda f, _: "\u200b".join(f),
    "soft hyphens": lambda f, _: "\u00ad".join(f),
    "repeats": _repeats,
    "cyrillic": lambda f, _: f.translate(CYRILLIC),
    "cyrillic by sound": lambda f, _: f.translate(CYRILLIC_SOUNDS),
    "hangul fillers": lambda f, _: "\u3164".join(f),  # a letter, default-ignorable
    "greek": lambda f, _: f.translate(GREEK),
    "fullwidth": lambda f, _: "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in f),
    "sound swap": _sound_swap,
    "in a sentence": lambda f, rng: rng.choice(("ty {} jeden", "co za {}!", "no {} no")).format(f),
    "shouted": lambda f, _: f.upper() + "!!!",
    "quoted": lambda f, _: f'"{f}"',
    "leet, upper": lambda f, _: f.translate(PLAIN).translate(LEET).upper(),
    "spaces, upper": lambda f, _: " ".join(f.upper()),
    "dots, no diacritics": lambda f, _: ".".join(f.translate(PLAIN)),
    "cyrillic, repeats": lambda f, rng: _repeats(f.translate(CYRILLIC), rng),
    "leet, spaces": lambda f, _: " ".join(f.translate(PLAIN).translate(LEET)),
    "masked letter": _masked,
    "pipes": lambda f, _: "|".join(f),
    "squared letters": lambda f, _: "".join(
        chr(0x1F170 + ord(c) - ord("a")) if "a" <= c <= "z" else c for c in f
    ),
    "pieces of 2-3 letters": _pieces,
    "phonetic": _phonetic,
    "glued into words": lambda f, rng: rng.choice(("ty{}jeden", "ale{}", "{}jeden")).format(f),
}
# Hand-made forms checked as they are, by file: the disguise they stand for.
REAL_WORLD = {
    "tricky.txt": "real-world",
    "phonetic.txt": "real: phonetic",
    "pieces.txt": "real: pieces",
    "glued.txt": "real: glued",
    "abbreviations.txt": "real: abbreviations",
    "english.txt": "real: english",
}
# Clean corpora: nothing in them may be blocked.
CLEAN = (
    "sentences.txt",
    "chat.txt",
    "names.txt",
    "traps.txt",
    "chat-uk.txt",
    "chat-ru.txt",
    "chat-en.txt",
    "traps-uk-ru.txt",
)

# Ukrainian and Russian forms: the disguises above that make sense for them, and their own.
# Mixed scripts: every other letter that has a look-alike in the other alphabet swapped
# for it (сука -> cуkа, blyat -> blуat), one letter of the form's own alphabet kept.
CYRILLIC_LOOKS = dict(zip("аеорсухкмті", "aeopcyxkmti", strict=True))
LATIN_LOOKS = {latin: cyrillic for cyrillic, latin in CYRILLIC_LOOKS.items()}
# Digits for letters, as in бл9ть, 3аебал, п1зда, 6лядь, and Latin leetspeak (of the
# vowels: "ebat" all in digits, 3847, would be a number).
CYRILLIC_DIGITS = str.maketrans("оезбчаия", "03364@19")
LATIN_DIGITS = str.maketrans("aeio", "4310")


def _mixed(form: str, _: random.Random) -> str:
    looks = LATIN_LOOKS if form.isascii() else CYRILLIC_LOOKS
    letters = list(form)
    places = [i for i, c in enumerate(letters) if c in looks][::2]
    for i in places:
        letters[i] = looks[letters[i]]
    if all(c.isascii() for c in letters) != form.isascii():
        return form  # nothing of the form's own alphabet left
    if all(c.isascii() for c in letters):
        return form if not places else "".join(letters)
    return "".join(letters)


def _digits(form: str, _: random.Random) -> str:
    return form.translate(LATIN_DIGITS if form.isascii() else CYRILLIC_DIGITS)


def _one_digit(form: str, rng: random.Random) -> str:
    table = LATIN_DIGITS if form.isascii() else CYRILLIC_DIGITS
    places = [i for i, c in enumerate(form) if c.translate(table) != c]
    if not places:
        return form
    i = rng.choice(places)
    return form[:i] + form[i].translate(table) + form[i + 1 :]


EASTERN_DISGUISES: dict[str, Disguise] = {
    name: DISGUISES[name]
    for name in (
        "plain",
        "upper",
        "title",
        "alternating",
        "spaces",
        "dots",
        "hyphens",
        "underscores",
        "zero-width",
        "soft hyphens",
        "hangul fillers",
        "repeats",
        "shouted",
        "quoted",
        "spaces, upper",
        "pipes",
        "masked letter",
    )
} | {
    "in a sentence": lambda f, rng: rng.choice(("ну ти {} така", "ах ты {}!", "ну {} же")).format(
        f
    ),
    "mixed scripts": _mixed,
    "digits": _digits,
    "one digit": _one_digit,
    "digits, spaces": lambda f, rng: " ".join(_digits(f, rng)),
}
EASTERN_REAL_WORLD = "vulgar-uk-ru.txt"


def disguised() -> Iterator[tuple[str, str, str]]:
    """(disguised text, disguise, plain form): every base form in every disguise,
    then the hand-made forms of ``REAL_WORLD`` as they are."""
    rng = random.Random(1000)
    for form in lines("vulgar-base.txt"):
        for name, disguise in DISGUISES.items():
            yield disguise(form, rng), name, form
    for form in lines("vulgar-base-en.txt"):
        for name, disguise in DISGUISES.items():
            if name != "phonetic":  # Polish misspellings
                yield disguise(form, rng), name, form
    for file, name in REAL_WORLD.items():
        for form in lines(file):
            yield form, name, form


def eastern_disguised() -> Iterator[tuple[str, str, str]]:
    """(disguised text, disguise, plain form): every Ukrainian and Russian base form in every
    disguise of ``EASTERN_DISGUISES``, then the hand-made forms as they are."""
    rng = random.Random(1000)
    for form in lines("vulgar-base-uk-ru.txt"):
        for name, disguise in EASTERN_DISGUISES.items():
            yield disguise(form, rng), name, form
    for form in lines(EASTERN_REAL_WORLD):
        yield form, "real-world", form
