"""Folding: every disguise people type comes out as the same plain word."""

from __future__ import annotations

import pytest

from tysiac.wordfilter import fold_word, split_words
from tysiac.wordfilter.fold import unmasked


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
        ("κυrωα", "kurwa"),  # Greek look-alikes
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
