"""Folding: every disguise people type comes out as the same plain word."""

from __future__ import annotations

import pytest

from tysiac.wordfilter import fold_word, split_words
from tysiac.wordfilter.fold import camel_parts, unmasked


@pytest.mark.parametrize(
    ("typed", "folded"),
    [
        ("KURWA", "kurwa"),  # capitals
        ("KuRwA", "kurwa"),
        ("gówno", "guwno"),  # ó reads as u
        ("żółć", "zulc"),  # diacritics left out
        ("źdźbło", "zdzblo"),
        ("chuj", "huj"),  # ch and h sound alike
        ("rzygać", "zygac"),  # rz and ż sound alike
        ("żygać", "zygac"),
        ("qrwa", "kurwa"),  # q for "ku"
        ("qtas", "kutas"),
        ("suqo", "suko"),  # q before a vowel for "k"
        ("qurwa", "kurwa"),
        ("kuuurwaaa", "kurwa"),  # repeated letters
        ("cchhuuj", "huj"),
        ("k0rw4", "korwa"),  # leetspeak
        ("j3b4ć", "jebac"),
        ("5uk4", "suka"),
        ("$uk@", "suka"),
        ("7ruskawka", "truskawka"),
        ("je8ać", "jebac"),
        ("p1erdo1", "p1erdo1"),  # 1 stays: the patterns read it as i or l
        ("d3b11", "deb11"),  # and "11" is not one letter
        ("кurwа", "kurwa"),  # Cyrillic look-alikes
        ("ѕука", "syka"),
        ("κυrwα", "kurwa"),  # Greek look-alikes
        ("ΚΥRWΑ", "kurwa"),  # capitals: casefolded first
        ("кoт", "kot"),  # к and т look like small capitals: read as their capitals
        ("ɑłø", "alo"),  # Latin letters without a decomposition, by their skeleton too
        ("ku\u3164rwa", "kurwa"),  # a Hangul filler: a letter, but default-ignorable
        ("ku\u034frwa", "kurwa"),  # combining grapheme joiner
        ("kur\ufe0fwa", "kurwa"),  # variation selector
        ("ku\U000e0041rwa", "kurwa"),  # a tag character
        ("d\u0443pa", "dypa"),  # у reads as y by look (its other reading: see below)
        ("пiзда", "pizda"),  # п, д look like no Latin letter: among Latin ones, by sound
        ("пиzда", "pizda"),  # one Latin letter: by sound, for п and д look like no Latin letter
        ("пизда", "пизда"),  # all in Ukrainian or Russian letters: not read (eastern.py's)
        ("сіра", "сіра"),  # Ukrainian: grey, no cipa
        ("ѕіра", "sipa"),  # other Cyrillic letters are a disguise: by look
        ("ｋｕｒｗａ", "kurwa"),  # fullwidth
        ("ku\u200brwa", "kurwa"),  # zero-width space
        ("ku\u00adrwa", "kurwa"),  # soft hyphen
        ("kurw\u0301a", "kurwa"),  # a stray combining accent
        ("kurva", "kurva"),  # v stays: the patterns read it as w or u
    ],
)
def test_disguises_fold_away(typed: str, folded: str) -> None:
    assert fold_word(typed) == folded


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("k\u0443rwa", "kurwa"),  # у: y by look, u by sound
        ("kурwa", "kurwa"),  # р: p by look, r by sound
        ("sука", "suka"),  # у by sound, к and а by look
        ("ѕуkа", "suka"),  # ѕ by look, у by sound: every mix is tried
        ("kурва", "kurva"),  # mostly Cyrillic
        ("ch\u0443j", "huj"),
        ("k.\u0443.r.w.a", "kurwa"),  # also when glued back
        ("s\u0443к4", "suka"),  # digits count as Latin
        ("skурвисын", "skurvisyn"),  # many letters of two readings: all look, all sound
    ],
)
def test_letters_of_two_readings_are_read_both_ways(text: str, reading: str) -> None:
    words, others = split_words(text)
    assert reading in others
    assert reading not in words  # the first list has one word per word: read by look


def test_letters_of_one_reading_stay_one_word() -> None:
    assert split_words("кurwа") == (["kurwa"], [])  # к, а: k and a by look and by sound
    assert split_words("dobra karta, żółć") == (["dobra", "karta", "zulc"], [])


@pytest.mark.parametrize("text", ["курва", "сука", "сразу", "дупель", "сипати"])
def test_words_all_in_cyrillic_are_read_by_look_alone(text: str) -> None:
    """Ukrainian and Russian words are no disguise: read by sound, many would hit stems
    (сразу: at once, дупель: a snipe, сипати: to pour)."""
    assert split_words(text)[1] == []


@pytest.mark.parametrize(
    ("text", "glued"),
    [
        ("k u r w a", "kurwa"),  # spaces between letters
        ("k.u.r.w.a", "kurwa"),  # dots
        ("k-u-r-w-a", "kurwa"),  # hyphens
        ("k_u_r_w_a", "kurwa"),  # underscores
        ("k. u. r. w. a.", "kurwa"),
        ("c h u j", "huj"),  # glued, then folded
        ("ku-rwa", "kurwa"),  # a chunk cut by punctuation
        ("j 3 b 4 c", "jebac"),  # digits count as letters once glued
    ],
)
def test_split_letters_are_glued_back(text: str, glued: str) -> None:
    assert glued in split_words(text)[1]


def test_words_numbers_and_punctuation() -> None:
    assert split_words("Mam 120, gramy dalej?!") == (["mam", "gramy", "dalej"], [])
    assert split_words("kurwa!!!")[0] == ["kurwa"]
    assert split_words("  ") == ([], [])


@pytest.mark.parametrize(
    ("text", "filled"),
    [("k*rwa", "kurwa"), ("ch*j", "huj"), ("sp##rdalaj", "spierdalaj"), ("ty j*bany!", "jebany")],
)
def test_masked_letters_are_filled_in(text: str, filled: str) -> None:
    assert filled in unmasked(text)


@pytest.mark.parametrize("text", ["*ważne*", "5 * 3", "gwiazdka*", "k***a", "dobra karta"])
def test_emphasis_arithmetic_and_long_masks_are_not_masks(text: str) -> None:
    assert unmasked(text) == []


@pytest.mark.parametrize(
    ("nick", "parts"),
    [
        ("KrolKurew", ["Krol", "Kurew"]),
        ("M4ryKurwa", ["M4ry", "Kurwa"]),  # a capital after a symbol after a small letter
        ("M€9@Szczyj", ["M€9@", "Szczyj"]),  # or before one
        ("B19Pi11€€r|)01ec", ["B19", "Pi11€€r|)01ec"]),
        ("SZCZYT2000", ["SZCZYT2000"]),  # no small letter: one word
        ("iPhone", ["iPhone"]),  # a part of one letter: whole
    ],
)
def test_nicks_are_cut_where_a_capital_starts_a_part(nick: str, parts: list[str]) -> None:
    assert camel_parts(nick) == parts
