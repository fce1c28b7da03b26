"""The filter against disguises made by kind (issue 30): ``disguise.py`` applies each way of
writing to every blocked base form, and the same ways to clean text, which must stay clean."""

from __future__ import annotations

import collections
import re
from functools import cache

from tysiac.wordfilter import default_filter, find_vulgarity, split_words

from .corpus import CLEAN, lines
from .disguise import (
    KINDS,
    base_forms,
    became_vulgar,
    clean_forms,
    cut_off,
    inflected_forms,
    nick_pairs,
    vulgar_forms,
)

RATE = 99  # % of each kind's forms caught, at least
LANGUAGES = {"chat-en.txt": "en"}  # the other clean corpora are disguised as Polish
CYRILLIC = re.compile("[\u0400-\u04ff]")
LATIN = re.compile("[a-zA-Z]")


@cache
def vulgar_results() -> dict[str, tuple[int, list[str]]]:
    """Kind -> (forms generated, forms missed)."""
    totals: collections.Counter[str] = collections.Counter()
    missed: dict[str, list[str]] = collections.defaultdict(list)
    for text, kind, _ in vulgar_forms():
        totals[kind] += 1
        if find_vulgarity(text) is None:
            missed[kind].append(text)
    return {kind: (totals[kind], missed[kind]) for kind in totals}


def eastern_reading(text: str, found: str) -> bool:
    """Whether a hit is a Latin word with a Cyrillic letter read as Ukrainian or Russian: by
    the policy (§13) such a word is read with the Latin letters' Cyrillic look-alikes (cуkа is
    сука, so a suka written with a Cyrillic к is too)."""
    return bool(CYRILLIC.search(found) and CYRILLIC.search(text) and LATIN.search(text))


def clean_hits(texts: list[str], language: str) -> tuple[list[tuple[str, str, str]], int]:
    """The disguises of clean ``texts`` that are blocked although they read as no vulgar word,
    as (disguise, kind, found); and how many blocked ones do read as one."""
    hits, vulgar = [], 0
    for text, kind, _ in clean_forms(texts, language):
        if (found := find_vulgarity(text)) is None:
            continue
        if became_vulgar(text) or eastern_reading(text, found):
            vulgar += 1
        else:
            hits.append((text, kind, found))
    return hits, vulgar


def test_every_kind_of_disguise_is_caught() -> None:
    results = vulgar_results()
    assert set(results) == set(KINDS)
    assert all(total > 70 for total, _ in results.values()), results
    low = {
        f"{kind}: {100 * (total - len(missed)) / total:.2f}%": missed
        for kind, (total, missed) in results.items()
        if len(missed) * 100 > (100 - RATE) * total
    }
    assert low == {}, "kinds caught less than 99%, with their misses"


def test_the_base_forms_cover_every_family_of_the_policy() -> None:
    """Every stem of stems.txt, en.txt and cut.txt has a base form (or a cut-off or inflected
    form made of one) that it matches on its own."""
    words = default_filter()
    forms = [form for form, _ in base_forms() + inflected_forms()]
    forms += [cut for form in forms for cut in cut_off(form)]
    folded = [word for form in forms for word in split_words(form)[0]]
    regexes = {stem.text: re.compile("".join(stem.atoms)) for stem in words.stems + words.cut}
    bare = [text for text, regex in regexes.items() if not any(map(regex.search, folded))]
    assert bare == []


def test_cut_off_and_inflected_forms_are_made() -> None:
    assert cut_off("zapierdalać") == ["zapierd", "zapierda"]
    assert cut_off("wyruchać") == ["wyruch", "wyrucha"]
    assert cut_off("pierdolić") == []  # no prefix
    inflected = {form for form, _ in inflected_forms()}
    assert {"dyma", "szczy", "szcza", "jebie", "fucks"} <= inflected


def test_disguised_clean_text_stays_clean() -> None:
    """Each kind (and combinations) on the clean corpora and on the 5,000 most frequent Polish
    words: nothing blocked, unless the disguise reads as a vulgar word (``became_vulgar``) or,
    mixing Cyrillic letters into Latin ones, as a Ukrainian or Russian one."""
    found = []
    vulgar = 0
    for name in CLEAN:
        hits, readings = clean_hits(lines(name), LANGUAGES.get(name, "pl"))
        found += hits
        vulgar += readings
    hits, readings = clean_hits(lines("frequent-pl.txt"), "pl")
    assert found + hits == []
    assert vulgar + readings < 50  # the readings stay a rare exception


def test_clean_camelcase_nicks_are_let_through() -> None:
    """1,000 nicks of two common nouns or first names, glued: at most 0.1% blocked."""
    nicks = nick_pairs(1000)
    assert len(set(nicks)) > 990
    hits = [(nick, found) for nick in nicks if (found := find_vulgarity(nick))]
    assert len(hits) <= 1, hits
