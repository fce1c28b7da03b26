"""The filter: what it blocks, what it lets through, and how fast."""

from __future__ import annotations

import collections

import pytest

from tysiac.wordfilter import DATA, WordFilter, find_vulgarity, is_clean, read_lines

from .corpus import (
    CLEAN,
    EASTERN_DISGUISES,
    REAL_WORLD,
    disguised,
    eastern_disguised,
    lines,
    require,
)

LDNOOBW = DATA / "ldnoobw"
HAND_MADE = WordFilter(ldnoobw=False)


@pytest.mark.parametrize(
    "text",
    [
        # one stem catches its inflections and derivatives
        *("chuj chuja chujowy chujnia huj hujowo ochujały".split()),
        *("kurwa kurwy kurwić wkurwiać skurwysyn skurwiel kurwiszon kurewski kurfa".split()),
        *("jebać zajebisty pojebany wyjebać jebnąć zjeb oczojebny matkojebca".split()),
        *("pierdolić spierdalaj przypierdolić spierdolina pierdoła".split()),
        *("pizda pizdy cipa cipka dupa dupek zadupie fiut kutas ciul gówno gówniarz".split()),
        *("srać zasrany zasraniec dziwka suko sukinsyn zdzira ździra ciota cwel".split()),
        *("szmato pedzio czarnuch ruchać wyruchać fuck motherfucker shit bitch".split()),
        # the families of issue 16
        *("szczać naszczał obszczany szczyny obszczymurek dymać dymany dupczyć".split()),
        *("lachociąg pedalski pedalstwo pedryl ciotowaty ciapaty ciapaci lesba".split()),
        *("wychujać ochujeć kutafon kutasa gówniarz sraczka".split()),
        *("bullshit prick dickhead cocksucker wanker twat bollocks faggot".split()),
        "piss off",
        "jerk off",
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
        "ruchy, ruchy",
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
        "kurka wodna",
        "psiakrew",
        "kurna",
        "wkurzyć",
        "skurczybyk",
        "obciągać",  # to upholster
        "bez jaj",
        "kupa śmiechu",
        "walę asem",
        "rżniemy w tysiąca",
        # non-vulgar insults, cycek-words and pierdzieć are mild (issue 16)
        "idiota",
        "ty idioto",
        "zidiocieć",
        "kretyn",
        "kretyński",
        "skretynieć",
        "debil",
        "debilu",
        "imbecyl",
        "cycate",
        "wycyckać",
        "cycki",
        "pierdzieć",
        "spierdzielaj",
        "wypierdek",
        # szczać, dymać, pedał: the ordinary words around them
        "szczaw",
        "Szczawnica",
        "wrzeszczał",
        "poszczą",  # pościć, to fast
        "szczęście",
        "dym",
        "zadyma",
        "nadymać",
        "wydymać wargi",
        "pedałować",
        "fagot",  # a bassoon; faggot is blocked
        "Kurlandia",
        "kurfirst",
        "no...a ty?",  # dots are no mask unless a masked word is one of masked.txt
        "czekaj...a może",
        "🇵🇱 gramy",  # regional indicators stay a flag
        "a|b",
        # cut-up words: ordinary words next to each other do not glue
        "czy ci pasuje?",
        "dam ci pana",
        "ja je bardzo lubię",
        "dam ci po razie",
        "pędzi owce",
        "ale ciapa to była",
        "twój ruch, Ala",
        "a hole in the wall",
        "ruch Ani",
        "shiitake",
        # decisions: ordinary words that can also be insults or vulgar
        "pedał",  # a bicycle pedal; "ty pedale" is blocked
        "pedały",
        "szmata",  # a rag; the vocative "szmato" is blocked
        "szmatą",
        "suka",  # a female dog; the vocative "suko" is blocked
        "suki",
        "kutasy",  # tassels; "kutas" is blocked
        "kutasami",
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
        "sуко",  # Cyrillic у, к, о
        "ѕуkо",  # Macedonian dze, by look, and у, by sound
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
        "5uk0",
        "suqo",  # q before a vowel is k
        "gowno",
        "guwno",
        "dvpa",
        "spier.dalaj",
        # misspellings by sound (sounds.txt)
        "kurła",
        "dziffka",
        "yebać",
        "zayebisty",
        "huy",
        "pjerdolić",
        "pizta",
        "tsipa",
        "kutaz",
        # cut into pieces of two or more letters
        "ku rwa",
        "pier do lić",
        "za je bi sty",
        "ruc hać",
        "ci pa",
        # glued into a run of words
        "tychuju",
        "alepizda",
        "tysukojedna",
        "idźdodupy",
        # words all in Cyrillic, read by sound for a few stems (foreign.txt)
        "курва",
        "хуй",
        "пизда",
        # masks of three letters or more, at the end, by dots (masked.txt)
        "п***ец",
        "х**",
        "k***a",
        "ty k***o!",
        "kurw*",
        "k...a",
        # letters in squares, separated by pipes; spelled with doubled letters
        "🅺🆄🆁🆆🅰",
        "k|u|r|w|a",
        "FAGG0T",
        # abbreviations
        "kfa",
        "jbć",
        "spdl",
        "hvdp",
    ],
)
def test_disguises(text: str) -> None:
    assert find_vulgarity(text) is not None


def test_returns_the_folded_stem() -> None:
    assert find_vulgarity("wkurwiający") == "kurw"
    assert find_vulgarity("Chujowy dzień") == "huj"
    assert find_vulgarity("dobra karta") is None
    assert find_vulgarity("заїбав") == "їб"  # Ukrainian and Russian: the stem of eastern.txt
    assert find_vulgarity("ну пиздець") == "пізд"


@pytest.mark.parametrize(
    ("text", "stem"),
    [
        # one stem: its inflections, prefixes, both languages, Latin letters
        *((t, "хуй") for t in "хуй нахуй похуй хуйня хуйовий huy khuy nahui huinya".split()),
        *((t, "хуё") for t in "хуёвый хуевый охуеть охуенно хуета хуєвий".split()),
        *((t, "пізд") for t in "пизда пиздець спиздил розпиздяй pizdec pizdets pyzdec".split()),
        *((t, "бля") for t in "бля блядь блять бляди blyat blyad bliat".split()),
        *((t, "еб") for t in "ебать заебал съебался отъебись уебок ebat zaebal eblan".split()),
        *((t, "їб") for t in "їбати заїбав з'їбав під’їбати виїбати zaibav yibaty".split()),
        ("ёбаный", "еб"),  # ё folds to е
        ("yobany", "ёб"),
        ("сука", "сук"),
        ("сучка", "сучк"),
        ("suchka", "сучк"),
        ("мудак", "мудак"),
        ("гандон", "гандон"),
        ("підарас", "підар"),
        ("пидор", "підор"),
        ("шльондра", "шлондр"),
        ("дрочить", "дроч"),
        ("кацап", "кацап"),
        # disguises: look-alike letters either way, digits, separators, masks
        ("xyй", "хуй"),  # Latin x, y
        ("xyu", "xy"),  # all Latin, by look
        ("cуkа", "сук"),
        ("рizdес", "пізд"),  # Cyrillic р, е, с in a Latin word
        ("blуat", "бля"),
        ("6лять", "бля"),
        ("бл@ть", "бля"),
        ("3аебал", "еб"),
        ("п1зда", "пізд"),
        ("х у й", "хуй"),
        ("б.л.я.д.ь", "бля"),
        ("хууууй", "хуй"),
        ("х*й", "хуй"),
        ("bl*at", "бля"),
    ],
)
def test_blocks_ukrainian_and_russian(text: str, stem: str) -> None:
    assert HAND_MADE.eastern.find(text) == stem  # "huy": the Polish stems catch it first
    assert find_vulgarity(text) is not None
    assert HAND_MADE.find(f"ну {text.upper()}!") is not None


@pytest.mark.parametrize(
    "text",
    [
        # the policy: Latin "suka" and "cyka" are Polish (a female dog; it ticks), the
        # Cyrillic сука is blocked; euphemisms and non-vulgar insults pass
        "suka",
        "cyka",
        "suchar",
        "na suku",
        "на суку сидит ворона",  # on a bough
        "блин",
        "хер с ним",
        "пофиг",
        "капец",
        "бляха-муха",
        "дурак",
        "хз",
        # words with the letters of a root (more in traps-uk-ru.txt)
        "рахуй очки",
        "застрахуй машину",
        "не психуй",
        "художник",
        "хуже",
        "рубля",
        "употреблять",
        "оздоблять",
        "небо",
        "себе",
        "тебя",
        "съел",
        "наибольший",
        "найобережніший",
        "сукня",
        "сукно",
        "несучка",
        "команда",
        "мандарин",
        "гандбол",
        "скипидар",
        "підорендувати",
        "спидран",
        "педикюр",
        "шлюз",
        "свіжопофарбований",
        "жидкий",
        "Жидачів",
        "хохолок",
        "бла-бла",
        # Latin words that read as a root
        "hue",
        "job",
        "yob",
        "ebay",
        "ebook",
        "Hyundai",
        "blat",
        "szalupa",
        "słucha",
        "droczyć się",
        "niebo",
        "ziębnąć",
        "rahuy ochky",
    ],
)
def test_lets_ukrainian_and_russian_through(text: str) -> None:
    assert find_vulgarity(text) is None


def test_ukrainian_and_russian_vulgarities_are_all_caught() -> None:
    """Every Ukrainian and Russian base form in every disguise, and the hand-made forms."""
    found = list(eastern_disguised())
    assert len(found) > 5000
    assert {name for _, name, _ in found} == {*EASTERN_DISGUISES, "real-world"}
    assert [(text, name) for text, name, _ in found if find_vulgarity(text) is None] == []
    assert [text for text, _, _ in found if HAND_MADE.find(text) is None] == []


def test_the_disguised_set_is_detected() -> None:
    """Every base form in every disguise, and the real-world forms: over 99% caught."""
    missed = collections.Counter(name for text, name, _ in disguised() if not find_vulgarity(text))
    total = sum(1 for _ in disguised())
    assert total > 10000
    assert sum(missed.values()) < total / 100, missed


# The least share of each disguise caught, in % (the others: 99). Below 99: what is
# known to be missed, see each file's misses in `bench/filter_corpus.py`.
FLOORS = {
    "leet": 98,  # words all in digits (13584) are numbers
    "leet, upper": 98,
    "leet, spaces": 98,
    "pieces of 2-3 letters": 95,  # "ci" starts few cut-up words (pieces.txt): ci psko
    "phonetic": 98,
    "glued into words": 97,
    "real: abbreviations": 90,  # masks of three letters (k***a)
    "real: english": 97,
    "real: glued": 95,
    "real: phonetic": 96,  # pezda (Pezda, a surname), pierdulić (pierdółka, a trifle)
    "real: pieces": 97,
}


def test_every_disguise_is_detected() -> None:
    texts: dict[str, list[str]] = collections.defaultdict(list)
    for text, name, _ in disguised():
        texts[name].append(text)
    assert set(REAL_WORLD.values()) <= set(texts)
    shares = {
        name: 100 * sum(find_vulgarity(text) is not None for text in group) / len(group)
        for name, group in texts.items()
    }
    assert {name: s for name, s in shares.items() if s < FLOORS.get(name, 99)} == {}


@pytest.mark.parametrize("name", CLEAN)
def test_ordinary_text_has_no_hit(name: str) -> None:
    corpus = lines(name)
    assert len(corpus) > (80 if name.startswith("traps") else 200)
    assert [(line, found) for line in corpus if (found := find_vulgarity(line))] == []
    assert [line for line in corpus if HAND_MADE.find(line)] == []


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
