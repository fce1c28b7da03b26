"""Nicks, game names and chat lines: look-alike and invisible ones refused or told apart."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tysiac.server.moderation.texts import (
    CHAT_MAX,
    NICK_MAX,
    TextRefused,
    clean_chat,
    clean_name,
    clean_nick,
    same_nick,
)
from tysiac.wordfilter.skeleton import is_default_ignorable, skeleton

ZALGO = "A" + "\u0300\u0301\u0302\u0303\u0304\u0306" + "la"


def refusal(clean: Callable[[str], object], text: str) -> str:
    with pytest.raises(TextRefused) as refused:
        clean(text)
    assert refused.value.message.endswith(".")
    return refused.value.code


@pytest.mark.parametrize(
    "nick",
    [
        "Ala",
        "Żaneta",
        "Łukasz_92",
        "Zoë",
        "Ala 🎉",
        "Ala ❤\ufe0f",  # a phone's emoji: a variation selector after an emoji stays
        "ŚĆIEŻKA",
        "Gżegżółka",
        "Nguyễn",  # one or two marks on a letter are fine
        "ą\u0303",  # ogonek (composed) and a tilde
        "Дмитро",
        "Σοφία",
        "李",
        "7",
    ],
)
def test_ordinary_nicks_are_accepted(nick: str) -> None:
    assert clean_nick(nick) == nick


def test_nicks_are_trimmed_and_folded() -> None:
    assert clean_nick("  Ala   Kowalska ") == "Ala Kowalska"
    assert clean_nick("Zoe\u0308") == "Zoë"  # NFC
    assert clean_nick("Ala\u2800") == "Ala"  # the braille blank counts as a space
    assert clean_nick("Ala\u00a0Ma") == "Ala Ma"


@pytest.mark.parametrize(
    ("nick", "code"),
    [
        ("\u3164", "invisible_nick"),  # Hangul filler: category Lo, but default-ignorable
        ("\u3164\u3164\u3164", "invisible_nick"),
        ("\u115f", "invisible_nick"),  # Hangul choseong filler
        ("\uffa0", "invisible_nick"),  # halfwidth Hangul filler
        ("\u2800", "empty_text"),  # braille blank: a space
        ("\u2800\u3164", "invisible_nick"),
        ("\u200b", "invisible_nick"),  # zero-width space
        ("🎉", "invisible_nick"),  # an emoji is no letter
        ("...", "invisible_nick"),
        ("\u0301\u0301", "invisible_nick"),
        ("Ala\u3164", "bad_characters"),  # invisible padding
        ("Ala\u034f", "bad_characters"),  # combining grapheme joiner
        ("Ala\ufe0f", "bad_characters"),  # a variation selector after no emoji
        ("Ala\u180b", "bad_characters"),  # Mongolian free variation selector
        ("Ala\u200b", "bad_characters"),
        ("A\u200dla", "bad_characters"),  # zero-width joiner
        ("Ala\u202e", "bad_characters"),  # right-to-left override
        ("Ala\U000e0041", "bad_characters"),  # a tag character
        ("Ala\u00ad", "bad_characters"),  # soft hyphen
        ("a\u0000b", "bad_characters"),
        ("Ala\ue000", "bad_characters"),  # private use
        (ZALGO, "too_many_marks"),
        ("Ala\u0301\u0302\u0303\u0304", "too_many_marks"),  # NFC: á and three more
        ("   ", "empty_text"),
        ("x" * (NICK_MAX + 1), "too_long"),
    ],
)
def test_invisible_and_bad_nicks_are_refused(nick: str, code: str) -> None:
    assert refusal(clean_nick, nick) == code


@pytest.mark.parametrize(
    "other",
    [
        "Ala",
        "ala",
        "ALA",
        "aLA",
        "\u0410la",  # Cyrillic А
        "\u0430la",  # Cyrillic а
        "Al\u0430",
        "\u0410\u04c0\u0430",  # Cyrillic А, palochka, а
        "Ａｌａ",  # fullwidth
        "ＡＬＡ",
        "𝐀𝐥𝐚",  # mathematical bold
        "Ala\u034f",  # invisible characters: refused by clean_nick, and no disguise either
        "Ala\ufe0f",
        "Ala\u180b",
        "A\u200bla",
        "Ala\u2800",
        "Ala ",
    ],
)
def test_look_alikes_of_a_nick_are_the_same_nick(other: str) -> None:
    assert same_nick("Ala", other)
    assert same_nick(other, "Ala")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ala", "Ola"),
        ("Ala", "Ala 🎉"),
        ("Ala", "Ala2"),
        ("Ala", "Ala_"),
        ("Ala", "Alan"),
        ("Łukasz", "Lukasz"),  # ł shows its stroke
        ("Żaneta", "Zaneta"),
        ("Zoë", "Zoe"),
        ("Kasia", "Basia"),
    ],
)
def test_different_nicks_are_not_the_same(a: str, b: str) -> None:
    assert not same_nick(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ola", "0la"),  # a zero looks like an O
        ("Ila", "lla"),  # a capital I like a small l
        ("Kamil", "KamiI"),
        ("Ami", "Arni"),  # m like rn, as TS #39 has it
    ],
)
def test_latin_look_alikes_are_the_same_nick_too(a: str, b: str) -> None:
    assert same_nick(a, b)


def test_reported_reproductions() -> None:
    """Point 10: at a table where Ala sits, every one of these was accepted."""
    for nick in ("\u0410la", "Ａｌａ"):
        assert clean_nick(nick) == nick  # fine as a nick of its own...
        assert same_nick("Ala", nick)  # ...but taken where Ala sits
    for nick in ("Ala\u034f", "Ala\ufe0f", "Ala\u180b"):
        assert refusal(clean_nick, nick) == "bad_characters"
        assert same_nick("Ala", nick)
    for nick in ("\u3164", "\u2800", "\uffa0", "\u115f"):
        assert refusal(clean_nick, nick) in ("invisible_nick", "empty_text")
    assert refusal(clean_nick, ZALGO) == "too_many_marks"


def test_game_names() -> None:
    assert clean_name(None) is None
    assert clean_name("   ") is None  # a blank name is no name
    assert clean_name("\u2800 ") is None
    assert clean_name("  Wieczorny  tysiąc ") == "Wieczorny tysiąc"
    assert clean_name("🎉🎉") == "🎉🎉"  # a name needs no letter
    assert refusal(clean_name, "Gra\u3164") == "bad_characters"
    assert refusal(clean_name, "Gra\u200b") == "bad_characters"
    assert refusal(clean_name, ZALGO) == "too_many_marks"
    assert refusal(clean_name, "x" * 41) == "too_long"


def test_chat_drops_invisible_characters() -> None:
    assert clean_chat("dobra karta") == "dobra karta"
    assert clean_chat("ku\u200brwa") == "kurwa"  # nothing left to hide in
    assert clean_chat("brawo\u3164!") == "brawo!"
    assert clean_chat("A\u034fla\u180b") == "Ala"
    assert clean_chat("e\u034f\u0301") == "é"  # dropped before NFC
    assert clean_chat("\u202eabc") == "abc"  # bidi override
    assert clean_chat("👨\u200d👩\u200d👧") == "👨👩👧"  # a joiner is invisible too
    assert clean_chat("super ❤\ufe0f") == "super ❤\ufe0f"  # a phone's emoji stays
    assert clean_chat("ok\ufe0f") == "ok"
    assert clean_chat("  dwie   spacje  ") == "dwie spacje"


def test_chat_refusals() -> None:
    assert refusal(clean_chat, "\u200b\u3164") == "empty_text"
    assert refusal(clean_chat, "   ") == "empty_text"
    assert refusal(clean_chat, "x" * (CHAT_MAX + 1)) == "too_long"
    assert refusal(clean_chat, "a\u0000b") == "bad_characters"
    assert refusal(clean_chat, "a\ue000") == "bad_characters"  # private use
    assert refusal(clean_chat, "\u0600 1") == "bad_characters"  # a format character
    assert refusal(clean_chat, f"to jest {ZALGO}") == "too_many_marks"
    assert clean_chat("x" * CHAT_MAX + "\u200b") == "x" * CHAT_MAX  # counted once dropped


def test_messages_are_polish_and_agree() -> None:
    with pytest.raises(TextRefused, match="Nick nie może być pusty"):
        clean_nick(" ")
    with pytest.raises(TextRefused, match="Wiadomość nie może być pusta"):
        clean_chat(" ")
    with pytest.raises(TextRefused, match="Nick musi zawierać widoczną literę albo cyfrę"):
        clean_nick("\u3164")
    with pytest.raises(TextRefused, match="najwyżej 2"):
        clean_nick(ZALGO)
    with pytest.raises(TextRefused, match="Nazwa gry zawiera niedozwolone znaki"):
        clean_name("a\u200b")


def test_the_skeleton_module() -> None:
    assert skeleton("\u0410la") == skeleton("Ala") == skeleton("Ａｌａ")
    assert skeleton("Ala\u034f") == skeleton("Ala")  # ICU keeps it; we drop it
    assert skeleton("Ola") != skeleton("Ala")
    assert all(is_default_ignorable(c) for c in "\u3164\u115f\uffa0\u034f\ufe0f\u180b\u200b")
    assert not any(is_default_ignorable(c) for c in "a\u2800ął ")
