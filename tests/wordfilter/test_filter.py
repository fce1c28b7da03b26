"""The filter: what it blocks, what it lets through, and how fast."""

from __future__ import annotations

import collections

import pytest

from tysiac.wordfilter import DATA, WordFilter, find_vulgarity, is_clean, read_lines

from .corpus import disguised, lines, require

LDNOOBW = DATA / "ldnoobw"
HAND_MADE = WordFilter(ldnoobw=False)


@pytest.mark.parametrize(
    "text",
    [
        # one stem catches its inflections and derivatives
        *("chuj chuja chujowy chujnia huj hujowo ochujały".split()),
        *("kurwa kurwy kurwić wkurwiać skurwysyn skurwiel kurwiszon kurewski kurfa".split()),
        *("jebać zajebisty pojebany wyjebać jebnąć zjeb oczojebny matkojebca".split()),
        *("pierdolić spierdalaj przypierdolić wypierdek spierdolina pierdoła".split()),
        *("pizda pizdy cipa cipka dupa dupek zadupie fiut kutas ciul gówno gówniarz".split()),
        *("srać zasrany dziwka suka sukinsyn zdzira ciota cwel debil kretyn idiota".split()),
        *("szmato pedzio czarnuch ruchać wyruchać fuck motherfucker shit bitch".split()),
        # prefixes, also several
        *("dopierdolić niedojebany najzajebistszy rozpierdol odpierdol ujebany".split()),
        # phrases
        "ty pedale",
        "robić loda",
        "🖕",
    ],
)
def test_blocks(text: str) -> None:
    assert find_vulgarity(text) is not None
    assert find_vulgarity(f"Ej, {text.upper()}!") is not None
    assert HAND_MADE.find(text) is not None  # also without the LDNOOBW files


@pytest.mark.parametrize(
    "text",
    [
        # ordinary words that contain a stem
        "podsłuchujący",  # chuj
        "podupadać",  # dup
        "duplikat",
        "komenda",  # mend
        "dowcip",  # cip
        "dowcipny",
        "borsuka",  # suka
        "sukces",  # suk
        "sukienka",
        "syfon",  # syf
        "pędzić",  # pedzio
        "napędzie",
        "ciułać",  # ciul
        "ściółka",
        "szachuj",  # s + za + chuj
        "zaniechujący",
        "ruch",  # ruchać
        "ruchach",
        "uruchamiać",
        "nieruchawy",
        "ciotka",  # ciota
        "ciocie",
        "Cyceron",  # cyc
        "debiut",  # debil
        "debilitacja",
        "kurfirst",  # kurfa
        "kurczę",  # mild: kurczę, kurde, cholera
        "kurde",
        "cholera",
        "shiitake",
        # decisions: ordinary words that can also be insults or vulgar
        "pedał",  # a bicycle pedal; "ty pedale" is blocked
        "pedały",
        "szmata",  # a rag; the vocative "szmato" is blocked
        "szmatą",
        "jajko",  # LDNOOBW entries not blocked, see ldnoobw-excluded.txt
        "pieprzyć",
        "burdel",
        "rzygać",
        "dmuchać",
        "syf",
        "głupi",  # mild words stay
        "głupek",
        "frajer",
        # card-game words that English entries fold to
        "as",  # ass
        "as pik",
        "XX wiek",
        "nudę",  # nude
        # Ukrainian and Russian, all in Cyrillic, are read by look alone
        "сразу",  # at once: by sound "srazu"
        "дупель",  # a snipe: "dupel"
        "будь ласка, пограємо ще раз",
    ],
)
def test_lets_through(text: str) -> None:
    assert find_vulgarity(text) is None
    assert is_clean(text.upper())


@pytest.mark.parametrize(
    "text",
    [
        "KURWA",
        "kurw4",
        "j3b4ć",
        "kuuuurwa",
        "k u r w a",
        "k.u.r.w.a",
        "k-u-r-w-a",
        "k_u_r_w_a",
        "ku\u200brwa",
        "кurwа",  # Cyrillic к, а
        "k\u0443rwa",  # Cyrillic у, which reads as u (and looks like y)
        "KУRWA",
        "kурwa",  # Cyrillic р, which looks like p (and reads as r)
        "kурва",  # mostly Cyrillic
        "sука",
        "ѕуkа",  # Macedonian dze, by look, and у, by sound
        "hуй",
        "пiзда",  # п and д look like no Latin letter, but read as p and d
        "ch\u0443j",
        "d\u0443pa",
        "κυrwα",  # Greek κ, υ, α
        "ΚΥRWΑ",
        "ｋ\u0443ｒｗａ",  # fullwidth with a Cyrillic у
        "ku\u3164rwa",  # invisible letters: Hangul fillers, variation selectors
        "ku\uffa0rwa",
        "ku\u115frwa",
        "kur\ufe0fwa",
        "ku\u034frwa",
        "k\u0301u\u0301r\u0301w\u0301a\u0301",  # marks on every letter
        "ｋｕｒｗａ",
        "kurva",
        "qrwa",
        "kórwa",
        "hój",
        "c h u j",
        "p1erdo1ę",
        "d3b1l",
        "d3b11",
        "5uk4",
        "gowno",
        "guwno",
        "dvpa",
        "spier.dalaj",
    ],
)
def test_disguises(text: str) -> None:
    assert find_vulgarity(text) is not None


def test_returns_the_folded_stem() -> None:
    assert find_vulgarity("wkurwiający") == "kurw"
    assert find_vulgarity("Chujowy dzień") == "huj"
    assert find_vulgarity("dobra karta") is None


def test_the_disguised_set_is_detected() -> None:
    """Every base form in every disguise, and the real-world forms: over 99% caught."""
    missed = collections.Counter(name for text, name, _ in disguised() if not find_vulgarity(text))
    total = sum(1 for _ in disguised())
    assert total > 3000
    assert sum(missed.values()) < total / 100, missed


@pytest.mark.parametrize("name", ["sentences.txt", "chat.txt", "names.txt"])
def test_ordinary_text_has_no_hit(name: str) -> None:
    corpus = lines(name)
    assert len(corpus) > 200
    assert [(line, found) for line in corpus if (found := find_vulgarity(line))] == []


def test_every_ldnoobw_entry_is_detected_or_excluded() -> None:
    require(LDNOOBW / "pl.json", "`make assets` copies it from npm's naughty-words")
    words = WordFilter()
    excluded = set(read_lines(DATA / "ldnoobw-excluded.txt"))
    for language in ("pl", "en"):
        entries = words.ldnoobw[language]
        assert [e for e in entries if e not in excluded and words.find(e) is None] == []
        assert [e for e in entries if e in excluded and words.find(e) is not None] == []
    # The Polish entries are caught by the hand-made lists too.
    polish = [e for e in words.ldnoobw["pl"] if e not in excluded]
    assert [e for e in polish if HAND_MADE.find(e) is None] == []
    # Each exclusion names a real entry.
    assert excluded <= set(words.ldnoobw["pl"]) | set(words.ldnoobw["en"])
