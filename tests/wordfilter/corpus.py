"""The filter's test corpora: files under data/, and disguised vulgar forms made from them.

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


def dictionary_vulgar() -> re.Pattern[str]:
    """data/dictionary-vulgar.txt as one regex: dictionary forms that are rightly blocked."""
    macros: dict[str, str] = {}
    rules = []
    for line in lines("dictionary-vulgar.txt"):
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
}


def disguised() -> Iterator[tuple[str, str, str]]:
    """(disguised text, disguise, plain form): every base form in every disguise,
    then the real-world forms of tricky.txt as they are."""
    rng = random.Random(1000)
    for form in lines("vulgar-base.txt"):
        for name, disguise in DISGUISES.items():
            yield disguise(form, rng), name, form
    for form in lines("tricky.txt"):
        yield form, "real-world", form
