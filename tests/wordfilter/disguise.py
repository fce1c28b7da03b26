"""A seeded generator of disguises, by kind (issue 30): the ways people write a word so that a
filter misses it, applied to every blocked base form of every family, and to clean text.

The kinds are written from the ways of writing, not from the filter's lists:

- ``digits and symbols``: any letters, in any number, for their digits and symbols
  (``0 1 3 4 5 7 8 9 @ $ ! €``), a vowel's digit maybe doubled (``ch00j``: ``00`` for u),
  and letters drawn with several characters (``|) |< \\/\\/ \\/ () ph``);
- ``nick glue``: CamelCase and PascalCase nicks with the word as one capitalised part
  (``KrolKurew``, ``MrChujów``, ``KurwaMaly``, ``Big_Kurwa_PL``, ``Chuj2000``);
- ``by sound``: Polish spellings by sound on Polish words (ch/h, ó/u, rz/ż, w/f, a doubled
  vowel, s/sz/ś, z/ź/ż, d/t at the end, a prefix's last consonant devoiced before a voiceless
  one: ``otpierdol``, ``fkurwiać``) and English ones on English words (ph, kk, ck, a dropped
  c or e, a digit for a vowel);
- ``cut-off``: a prefixed verb cut after its vulgar root (``odpierd``, ``zajeb``, ``wyruch``);
- ``inflected``: every unprefixed form of the blocked verbs (``dyma``, ``szczy``, ``jebie``);
- ``unicode: NFKC forms``: mathematical, fullwidth, circled, parenthesised, superscript and
  subscript letters, ligatures; ``unicode: small capitals``: small capitals and modifier
  letters that NFKC leaves alone (``ᴋᴜʀᴡᴀ``, ``ᶦ``); ``unicode: look-alikes``: Greek and
  Cyrillic letters mixed into a Latin word (``κυrωα``, ``dυpа``); ``unicode: marks``:
  combining marks, variation selectors and joiners between the letters;
- ``combined``: two or three of the kinds above, drawn at random, on every base form.

``vulgar_forms()`` yields each kind on every base form (``data/vulgar-base*.txt``); ``clean_
forms(texts)`` yields each kind on clean text (the same transforms: a disguised clean word
must stay clean); ``nick_pairs()`` glues common nouns and first names into clean nicks.
Everything is seeded: the same run gives the same forms.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path

from .corpus import dictionary_vulgar, lines

LDNOOBW = Path(__file__).resolve().parents[2] / "src" / "tysiac" / "wordfilter" / "data"

Transform = Callable[[str, str, random.Random], str | None]  # (form, language, rng)
SEED = 30

# --- digits and symbols --------------------------------------------------------------------
# A letter -> what people type for it. Several characters draw one letter: |) is d.
LEET: dict[str, tuple[str, ...]] = {
    "a": ("4", "@"),
    "b": ("8",),
    "d": ("|)",),
    "e": ("3", "€"),
    "f": ("ph",),
    "g": ("9",),
    "i": ("1", "!"),
    "k": ("|<",),
    "l": ("1",),
    "o": ("0", "()"),  # single: two zeros are a u
    "s": ("5", "$"),
    "t": ("7",),
    "u": ("00",),  # ch00j: two zeros read as oo, and oo sounds as u
    "v": ("\\/",),
    "w": ("\\/\\/",),
}
# A vowel's digit may be doubled: p1zd44 (not 1: "11" is read as il, li or ll; not 0: "00" is u).
DOUBLED = {"a": "4", "e": "3"}


def digits_and_symbols(form: str, _: str, rng: random.Random) -> str | None:
    """Some small letters (one, several or all but one) for their digits and symbols; capitals
    stay, for they mark a nick's parts."""
    places = [i for i, c in enumerate(form) if c in LEET]
    if not places:
        return None
    letters = sum(c.isalpha() for c in form)
    most = min(len(places), letters - 1)  # a word all in digits is a number
    if most < 1:
        return None
    chosen = set(rng.sample(places, rng.randint(1, most)))
    out = []
    for i, c in enumerate(form):
        if i not in chosen:
            out.append(c)
            continue
        sub = rng.choice(LEET[c])
        if c in DOUBLED and sub == DOUBLED[c] and rng.random() < 0.3:
            sub *= 2
        out.append(sub)
    return "".join(out)


# --- nick glue ------------------------------------------------------------------------------
BEFORE = ("Krol", "Mr", "Big", "Pan", "Super", "Mega", "Dark", "Lord", "The", "Stary", "xX")
AFTER = ("Maly", "Mala", "PL", "Master", "King", "Pro", "Boss", "Team", "Xx", "2000", "123")
NICKS = (
    "{b}{X}",
    "{X}{a}",
    "{b}{X}{a}",
    "{b}_{X}_{a}",
    "{X}_{a}",
    "{b}{X}{n}",
    "{x}{a}",  # the word itself in lower case: kurwaMaly
)


def nick_glue(form: str, _: str, rng: random.Random) -> str | None:
    """One word (the first of a line) glued into a nick as one of its capitalised parts."""
    words = form.split()
    word = words[0]
    nick = rng.choice(NICKS).format(
        b=rng.choice(BEFORE),
        a=rng.choice(AFTER),
        X=word[:1].upper() + word[1:] if rng.random() < 0.8 else word.upper(),
        x=word,
        n=rng.choice(("2000", "77", "123", "_PL")),
    )
    return " ".join([nick, *words[1:]])


# --- spelling by sound -----------------------------------------------------------------------
PREFIXES = ("przed", "prze", "przy", "roz", "pod", "nad", "od", "ob", "wy", "za", "na", "po")
DEVOICED = {"d": "t", "z": "s", "w": "f", "b": "p"}
POLISH_SOUNDS: tuple[tuple[str, str], ...] = (
    ("ch", "h"),
    ("(?<![cs])h", "ch"),
    ("ó", "u"),
    ("u", "ó"),
    ("rz", "ż"),
    ("ż", "rz"),
    ("(?<!^)w|^w(?![aeiouyąęó])", "f"),  # not a leading w before a vowel: wy-, we- are voiced
    ("f", "w"),
    ("([aeiouy])", r"\1\1"),  # a doubled vowel
    ("s(?!z)", "sz"),
    ("s(?!z)", "ś"),
    ("sz", "s"),
    ("sz", "ś"),
    ("ś", "s"),
    ("ś", "sz"),
    ("(?<![rcds])z", "ź"),
    ("(?<![rcds])z", "ż"),
    ("ź", "z"),
    ("ż", "z"),
    ("d$", "t"),
)
VOICELESS = tuple("ptkfscśćh")
ENGLISH_SOUNDS: tuple[tuple[str, str], ...] = (
    ("f", "ph"),
    ("ck", "kk"),
    ("ck", "k"),
    ("(?<!c)k", "kk"),
    ("(?<!c)k", "ck"),
    ("c(?=[kh])", ""),  # a dropped c: fuk, bith
    ("(?<=.)e", ""),  # a dropped e: whor, fuckr, mothrfucker
    ("a", "4"),  # a digit for a vowel
    ("e", "3"),
    ("i", "1"),
    ("o", "0"),
)


def _swap(form: str, rng: random.Random, swaps: tuple[tuple[str, str], ...]) -> str | None:
    found = [(spelling, sound) for spelling, sound in swaps if re.search(spelling, form)]
    if not found:
        return None
    spelling, sound = rng.choice(found)
    places = list(re.finditer(spelling, form))
    place = rng.choice(places)
    return form[: place.start()] + place.expand(sound) + form[place.end() :]


def _devoice_prefix(form: str) -> str | None:
    """A prefix's last consonant as it sounds before the rest: otpierdol, fkurwiać, rospierdol."""
    for prefix in (*PREFIXES, "w", "z"):
        if form.startswith(prefix) and prefix[-1] in DEVOICED and len(form) > len(prefix) + 2:
            rest = form[len(prefix) :]
            if rest.startswith(VOICELESS):
                return prefix[:-1] + DEVOICED[prefix[-1]] + rest
    return None


def by_sound(form: str, language: str, rng: random.Random) -> str | None:
    """One to three spellings by sound, in the form's own language."""
    if language == "en":
        swaps = ENGLISH_SOUNDS
    elif language == "pl":
        swaps = POLISH_SOUNDS
    else:
        return None
    out = form
    for _ in range(rng.randint(1, 3)):
        if language == "pl" and rng.random() < 0.25 and (devoiced := _devoice_prefix(out)):
            out = devoiced
        elif swapped := _swap(out, rng, swaps):
            out = swapped
    return None if out == form else out


# --- cut-off and inflected forms (made from the families, not from a form) -------------------
# The vulgar roots of prefixed verbs: a prefixed form is cut right after its root (or one
# vowel later): odpierdolić -> odpierd, zajebać -> zajeb, wyruchać -> wyruch.
CUT_ROOTS = ("pierd", "jeb", "kurw", "chuj", "pizd", "piźd", "sr", "szcz", "ruch", "dupcz", "cwel")
ALL_PREFIXES = (*PREFIXES, "do", "u", "o", "w", "z", "s", "ze", "we", "roze", "ode", "nie")
CUT_PREFIX = re.compile(f"^(?:{'|'.join(sorted(ALL_PREFIXES, key=len, reverse=True))})+")


def cut_off(form: str) -> list[str]:
    """A prefixed verb form cut after its root: ``zapierdalać`` -> ``zapierd``, ``zapierda``."""
    prefix = CUT_PREFIX.match(form)
    if not prefix:
        return []
    rest = form[prefix.end() :]
    for root in CUT_ROOTS:
        if rest.startswith(root) and len(rest) > len(root):
            cut = form[: prefix.end() + len(root)]
            after = rest[len(root)]
            return [cut, cut + after] if after in "aeiou" else [cut]
    return []


# Endings by conjugation (Polish): the forms of a verb from its stems.
PAST = "ł ła ło li ły łem łam łeś łaś liśmy łyśmy liście łby łaby łoby liby"
AC = "ać am asz a amy acie ają aj ajcie ając ający ająca any ana ane ani anie " + " ".join(
    "a" + ending for ending in PAST.split()
)
VERBS: dict[str, str] = {
    # newly blocked verbs of issue 16: the third person and the rest, not only the infinitive
    "dymać": " ".join("dym" + e for e in AC.split()),
    "ruchać": " ".join("ruch" + e for e in AC.split()),
    "szczać": " ".join("szcz" + e for e in AC.split())
    + " szczę szczysz szczy szczymy szczą szczyj",  # szczycie is a summit's: no
    "srać": " ".join("sr" + e for e in AC.split()),
    "pierdalać": " ".join("pierdal" + e for e in AC.split()),
    "dupczyć": "dupczyć dupczę dupczysz dupczy dupczymy dupczycie dupczą dupcz dupczcie "
    "dupczył dupczyła dupczyli dupczyłem dupczony dupczona dupczenie dupcząc dupczący",
    "jebać": "jebać jebię jebiesz jebie jebiemy jebiecie jebią jeb jebcie jebał jebała jebało "
    "jebali jebały jebałem jebałeś jebany jebana jebane jebanie jebiąc jebiący",
    "jebnąć": "jebnąć jebnę jebniesz jebnie jebniemy jebniecie jebną jebnij jebnijcie jebnął "
    "jebnęła jebnęło jebnęli jebnęły jebnąłem jebnęłam jebnięty jebnięta jebnięcie",
    "pierdolić": "pierdolić pierdolę pierdolisz pierdoli pierdolimy pierdolicie pierdolą "
    "pierdol pierdolcie pierdolił pierdoliła pierdolili pierdoliłem pierdolony pierdolona "
    "pierdolenie pierdoląc pierdolący",
    "kurwić": "kurwić kurwię kurwisz kurwi kurwimy kurwicie kurwią kurw kurwił kurwiła kurwiony",
    "piździć": "piździć piżdżę piździsz piździ piździmy piździcie piżdżą piźdź piździł "
    "piździła piździli",
    "chujać": "chujać chujam chujasz chuja chujają chujał chujała",
    "fuck": "fuck fucks fucked fucking fucker fuckers",
    "wank": "wank wanks wanked wanking wanker wankers",
}


def inflected_forms() -> list[tuple[str, str]]:
    """(form, language): every unprefixed form of every blocked verb."""
    found = []
    for verb, forms in VERBS.items():
        language = "en" if verb.isascii() and verb in ("fuck", "wank") else "pl"
        found += [(form, language) for form in dict.fromkeys(forms.split())]
    return found


# --- Unicode ----------------------------------------------------------------------------------
@cache
def _styled(style: str, letter: str) -> str:
    """``letter`` in a style of Unicode letters, by name; the letter itself if there is none.
    A capital has its style's capital, or stays as it is."""
    if letter.isupper():
        capitals = {
            "fullwidth": f"FULLWIDTH LATIN CAPITAL LETTER {letter}",
            "circled": f"CIRCLED LATIN CAPITAL LETTER {letter}",
        }
        name = capitals.get(style, f"MATHEMATICAL {style} CAPITAL {letter}")
        try:
            return unicodedata.lookup(name)
        except KeyError:
            return letter
    names = {
        "fullwidth": f"FULLWIDTH LATIN SMALL LETTER {letter.upper()}",
        "circled": f"CIRCLED LATIN SMALL LETTER {letter.upper()}",
        "parenthesized": f"PARENTHESIZED LATIN SMALL LETTER {letter.upper()}",
        "superscript": f"MODIFIER LETTER SMALL {letter.upper()}",
        "subscript": f"LATIN SUBSCRIPT SMALL LETTER {letter.upper()}",
        "small capital": f"LATIN LETTER SMALL CAPITAL {letter.upper()}",
        "modifier small capital": f"MODIFIER LETTER SMALL CAPITAL {letter.upper()}",
    }
    name = names.get(style, f"MATHEMATICAL {style} SMALL {letter.upper()}")
    for candidate in (name, name.replace("SMALL CAPITAL", "SMALL LETTER SMALL CAPITAL")):
        try:
            return unicodedata.lookup(candidate)
        except KeyError:
            pass
    if style == "superscript" and letter == "i":
        return "ⁱ"
    if style == "superscript" and letter == "n":
        return "ⁿ"
    if style == "small capital":
        return {"f": "ꜰ", "s": "ꜱ", "q": "ꞯ"}.get(letter, letter)
    return letter


NFKC_STYLES = (
    "BOLD",
    "ITALIC",
    "BOLD ITALIC",
    "SCRIPT",
    "BOLD SCRIPT",
    "FRAKTUR",
    "DOUBLE-STRUCK",
    "SANS-SERIF",
    "SANS-SERIF BOLD",
    "SANS-SERIF ITALIC",
    "MONOSPACE",
    "fullwidth",
    "circled",
    "parenthesized",
    "superscript",
    "subscript",
)
LIGATURES = {"ff": "ﬀ", "fi": "ﬁ", "fl": "ﬂ", "st": "ﬆ"}
SCRIPT_GAPS = {"e": "ℯ", "g": "ℊ", "o": "ℴ", "h": "ℎ"}  # letters outside the maths block


def _restyle(form: str, rng: random.Random, styles: tuple[str, ...], share: float) -> str:
    style = rng.choice(styles)
    every = rng.random() < share
    out = []
    for c in form:
        if "a" <= c.lower() <= "z" and (every or rng.random() < 0.5):
            styled = _styled(style, c)
            if styled == c and style in ("SCRIPT", "ITALIC"):
                styled = SCRIPT_GAPS.get(c, c)
            out.append(styled)
        else:
            out.append(c)
    return "".join(out)


def nfkc_forms(form: str, _: str, rng: random.Random) -> str | None:
    """Letters NFKC folds: mathematical, fullwidth, circled, parenthesised, super- and subscript,
    ligatures; all the letters or some of them."""
    if not re.search("[a-z]", form.lower()):
        return None
    if rng.random() < 0.15 and any(pair in form for pair in LIGATURES):
        for pair, ligature in LIGATURES.items():
            form = form.replace(pair, ligature)
        return form
    return _restyle(form, rng, NFKC_STYLES, 0.6)


def small_capitals(form: str, _: str, rng: random.Random) -> str | None:
    """Small capitals and modifier small capitals, which NFKC leaves as they are: ᴋᴜʀᴡᴀ, ᶦ."""
    if not re.search("[a-z]", form.lower()):
        return None
    out = _restyle(form, rng, ("small capital", "small capital", "modifier small capital"), 0.6)
    return out if out != form else None


# Greek and Cyrillic letters that look like a Latin one (the κ υ ρ ω α ο ν ι τ, and
# Cyrillic а е о р с у х к і ј ѕ һ ԁ т м ш).
LOOKALIKES: dict[str, str] = {
    "a": "αа",
    "c": "с",
    "d": "ԁ",
    "e": "еε",
    "h": "һ",
    "i": "ιі",
    "j": "ј",
    "k": "κк",
    "m": "м",
    "n": "η",
    "o": "οо",
    "p": "ρр",
    "s": "ѕ",
    "t": "τт",
    "u": "υ",
    "v": "ν",
    "w": "ωш",
    "x": "хχ",
    "y": "уγ",
}


def lookalikes(form: str, _: str, rng: random.Random) -> str | None:
    """One letter, a few, or every other one for a Greek or Cyrillic look-alike; at least one
    Latin letter is kept (a word all in Cyrillic is eastern.py's)."""
    places = [i for i, c in enumerate(form) if c.lower() in LOOKALIKES]
    latin = sum("a" <= c.lower() <= "z" for c in form)
    if not places or latin < 2:
        return None
    count = rng.randint(1, min(len(places), latin - 1, 4))
    chosen = set(rng.sample(places, count))
    out = []
    for i, c in enumerate(form):
        look = rng.choice(LOOKALIKES[c.lower()]) if i in chosen else c
        out.append(look.upper() if c.isupper() else look)  # a capital for a capital: Ρ, К
    return "".join(out)


# How each look-alike above reads by sound (Greek and Cyrillic letters; ԁ ѕ һ ј only look).
SOUNDS = dict(zip("αасεеικкмпηοоρрτтυиνωшхχуγ", "aaseeikkmpeoorrttuinoshhug", strict=True))


UNLEET = {"4": "a", "@": "a", "8": "b", "3": "e", "€": "e", "9": "g", "!": "i", "5": "s"}
UNLEET |= {"$": "s", "7": "t", "0": "o"}
UNDRAWN = (("\\/\\/", "w"), ("|)", "d"), ("|<", "k"), ("\\/", "v"), ("()", "o"))


def readings(text: str) -> list[str]:
    """``text`` in plain lower-case letters, each look-alike read by look and by sound, ``1``
    as i and as l, ``00`` as oo and as u (at most 64 readings): what a disguise of a clean text
    may read as (``sрać``: spać and srać; ``gr00pę``: groopę)."""
    plain = " ".join(part for chunk in text.split() for part in camel_parts(chunk))
    plain = unicodedata.normalize("NFKD", plain)
    plain = "".join(c for c in plain if unicodedata.category(c) not in ("Mn", "Me", "Cf"))
    plain = "".join(_SMALL.get(c, c) for c in plain).lower()
    for drawing, letter in UNDRAWN:
        plain = plain.replace(drawing, letter)
    plain = re.sub(r"\((\w)\)", r"\1", plain)  # ⒦ is (k)
    looks = {other: latin for latin, others in LOOKALIKES.items() for other in others}
    found = [""]
    for c in plain.replace("00", "\0"):  # two zeros: o (doubled) or u
        options = {looks.get(c, c), SOUNDS.get(c, looks.get(c, c))}
        options = {UNLEET.get(o, o) for o in options}
        options = {"i", "l"} if c == "1" else {"o", "u"} if c == "\0" else options
        found = [f + o for f in found for o in sorted(options)][:64]
    return found


@cache
def _vulgar_words() -> tuple[re.Pattern[str], frozenset[str]]:
    """dictionary-vulgar.txt's regex, and the words of the LDNOOBW lists (less the excluded
    ones) with doubled letters single, also without their e and with an s: the vulgar words
    of the project's own lists."""
    excluded = set(lines_of(LDNOOBW / "ldnoobw-excluded.txt"))
    words: set[str] = set()
    for language in ("pl", "en"):
        path = LDNOOBW / "ldnoobw" / f"{language}.json"
        entries = json.loads(path.read_text("utf-8")) if path.exists() else []
        words |= {_single(e) for e in entries if e not in excluded and " " not in e}
    words |= {word.replace("x", "ks") for word in words}  # sexo is sekso
    words |= {word.replace("e", "") for word in words}
    words |= {word + "s" for word in words}
    return dictionary_vulgar(), frozenset(words)


def camel_parts(chunk: str) -> list[str]:
    """A nick cut before each capital that follows a small letter or a digit, or that starts
    a capitalised part after capitals (``MrCHUJMaly`` -> ``Mr CHUJ Maly``); the filter's own
    rule is stricter (``fold.camel_parts``), this one only reads disguises."""
    cuts = [0]
    for place in range(1, len(chunk)):
        before, letter, after = chunk[place - 1], chunk[place], chunk[place + 1 : place + 2]
        if letter.isupper() and (
            before.islower() or before.isdigit() or (before.isupper() and after.islower())
        ):
            cuts.append(place)
    return [chunk[a:b] for a, b in zip(cuts, [*cuts[1:], len(chunk)], strict=True)]


def lines_of(path: Path) -> list[str]:
    text = path.read_text("utf-8").splitlines()
    return [line.split("#", 1)[0].strip() for line in text if line.split("#", 1)[0].strip()]


def _single(word: str) -> str:
    return re.sub(r"(.)\1+", r"\1", word)


def became_vulgar(text: str) -> bool:
    """Whether a disguise of a clean text reads as a vulgar word in one of its ``readings``:
    a form dictionary-vulgar.txt calls vulgar (``sрać``: srać; ``d00pek``: dupek) or a word
    of the LDNOOBW lists (``gr00pę``: grope). Such a disguise may be blocked."""
    regex, words = _vulgar_words()
    chunks = [part for chunk in text.split() for part in camel_parts(chunk)]
    chunks += [re.sub(r"(?<=\D)(?:(?=\d*[26])\d{2,}|(\d)\1+)$", "", c) for c in chunks]  # Suko2000
    return any(
        regex.search(word) or regex.search(_single(word)) or _single(word) in words
        for chunk in chunks
        for reading in readings(chunk)
        for spelled in re.findall(r"\w+", reading)
        for word in {spelled, spelled.replace("ó", "u")}  # ó sounds as u: dópa
    )


_SMALL = {
    _styled(style, letter): letter
    for style in ("small capital", "modifier small capital")
    for letter in "abcdefghijklmnopqrstuvwxyz"
}


MARKS = (
    *(chr(c) for c in range(0x0300, 0x0370)),  # combining diacritics, and Latin letters above
    "\u0489",  # combining enclosing
    "\u20e3",
    "\u034f",  # combining grapheme joiner
    *(chr(c) for c in range(0xFE00, 0xFE10)),  # variation selectors
    "\U000e0100",
    "\u200d",  # zero-width joiner and non-joiner
    "\u200c",
)


def marks(form: str, _: str, rng: random.Random) -> str | None:
    """Combining marks, variation selectors and joiners after some letters or all."""
    every = rng.random() < 0.5
    out = []
    for c in form:
        out.append(c)
        if c.isalpha() and (every or rng.random() < 0.5):
            out.append("".join(rng.choice(MARKS) for _ in range(rng.choice((1, 1, 2)))))
    return "".join(out)


# --- the kinds ----------------------------------------------------------------------------------
TRANSFORMS: dict[str, Transform] = {
    "digits and symbols": digits_and_symbols,
    "nick glue": nick_glue,
    "by sound": by_sound,
    "unicode: NFKC forms": nfkc_forms,
    "unicode: small capitals": small_capitals,
    "unicode: look-alikes": lookalikes,
    "unicode: marks": marks,
}
# The order kinds apply in when combined: spelling first, the nick, then the characters.
ORDER = ("by sound", "nick glue", "digits and symbols", *list(TRANSFORMS)[3:])
KINDS = (*TRANSFORMS, "cut-off", "inflected", "combined")


def base_forms() -> list[tuple[str, str]]:
    """(form, language): the blocked base forms of every family of the policy."""
    forms = [(form, "pl") for form in lines("vulgar-base.txt")]
    forms += [(form, "en") for form in lines("vulgar-base-en.txt")]
    return list(dict.fromkeys(forms))


def _combine(form: str, language: str, rng: random.Random, kinds: Iterable[str]) -> str:
    for kind in sorted(kinds, key=ORDER.index):
        form = TRANSFORMS[kind](form, language, rng) or form
    return form


def vulgar_forms(seed: int = SEED, combined: int = 2) -> Iterator[tuple[str, str, str]]:
    """(disguised text, kind, base form): each kind on every base form, the cut-off and
    inflected forms, and ``combined`` random combinations of two or three kinds for every
    base, cut-off and inflected form."""
    rng = random.Random(seed)
    bases = base_forms()
    cuts = [(cut, "pl") for form, lang in bases if lang == "pl" for cut in cut_off(form)]
    cuts = list(dict.fromkeys(cuts))
    inflected = inflected_forms()
    for form, language in bases:
        for kind, transform in TRANSFORMS.items():
            if (text := transform(form, language, rng)) is not None:
                yield text, kind, form
    for form, _ in cuts:
        yield form, "cut-off", form
    for form, _ in inflected:
        yield form, "inflected", form
    for form, language in bases + cuts + inflected:
        for _ in range(combined):
            kinds = rng.sample(list(TRANSFORMS), rng.choice((2, 3)))
            yield _combine(form, language, rng, kinds), "combined", form


def clean_forms(
    texts: Iterable[str], language: str = "pl", seed: int = SEED, combined: int = 1
) -> Iterator[tuple[str, str, str]]:
    """(disguised text, kind, clean text): each kind on every word of each text in
    ``language`` (the nick glue on its first word), and ``combined`` random combinations of
    two or three kinds."""
    rng = random.Random(seed)
    for text in texts:
        for kind, transform in TRANSFORMS.items():
            if kind == "nick glue":
                disguised = transform(text, language, rng)
            else:
                words = [transform(w, language, rng) or w for w in text.split()]
                disguised = " ".join(words)
            if disguised is not None and disguised != text:
                yield disguised, kind, text
        for _ in range(combined):
            kinds = rng.sample(list(TRANSFORMS), rng.choice((2, 3)))
            words = text.split()
            head = _combine(words[0], language, rng, kinds)
            rest = [kind for kind in kinds if kind != "nick glue"]
            others = [_combine(word, language, rng, rest) for word in words[1:]]
            yield " ".join([head, *others]), "combined", text


def nick_pairs(count: int = 1000, seed: int = SEED) -> list[str]:
    """``count`` clean nicks: two common nouns or first names, Polish or English, glued in
    CamelCase or PascalCase (``KotMarek``, ``DarkForest``, ``annaKowal``)."""
    rng = random.Random(seed)
    words = lines("nick-words.txt")
    nicks = []
    for _ in range(count):
        first, second = rng.sample(words, 2)
        first = first if rng.random() < 0.2 else first[:1].upper() + first[1:]
        nicks.append(first + second[:1].upper() + second[1:])
    return nicks
