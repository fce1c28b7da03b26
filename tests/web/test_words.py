"""The catalogue (src/tysiac/catalogue/pl.json) is the one place of every name and sentence.

- every key the server, the rules and the page use is in it, with the same placeholders;
- every key in it is used (by its literal key, or as one of a family the server's tables
  name: an option's values, the levels, the phases);
- the page's modules hold no Polish text of their own, but for those the next step
  converts (``NOT_YET``), each with at most as many strings as it has now.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tysiac import bots, catalogue
from tysiac.rules import cards
from tysiac.rules.hand import Phase
from tysiac.rules.options import CHOICES, PRESETS, option_id, value_key
from tysiac.server.moderation import texts, violations

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "tysiac"
JS = SRC / "web" / "static" / "js"
WORDS = catalogue.words("pl")
# The groups of keys (docs/catalogue.md); a card's rank and suit are spelled by their codes
# (card.rank.Q, card.suit.H), the only capitals in a key.
GROUPS = (
    "error|moderation|option|options|preset|level|phase|seat|card|meld|count|log|result"
    "|outcome|turn|table|connection|home|contact|settings|page"
)
KEY = re.compile(rf"(?:{GROUPS})(?:\.(?!html\b|js\b)[A-Za-z0-9_]+)+")  # not contact.html
# The forms of a counted text (a11y.js pluralForm, counted("count.cards", n)).
PLURAL_FORMS = ("one", "few", "many")
# Arguments of a refusal that are no placeholder.
NOT_PARAMS = {"status", "field", "more"}

# Modules whose words still live in them, with how many Polish strings each may hold at
# most: the client conversion step moves them to the catalogue and deletes their line here
# (render.js and a11y.js are being split into region modules first). This list shrinks to
# empty; it never grows.
NOT_YET = {
    "api.js": 2,  # "no connection", "server error"
    "contact.js": 11,  # the contact form
    "home.js": 22,  # the home page's lists and hints
    "main.js": 15,  # the table page's notes
    "page.js": 3,  # the terms page's operator lines
    "settings.js": 9,  # the settings panel
}
# A string with a Polish letter or a common short Polish word is taken for a name or a
# sentence (comments are left out).
POLISH = re.compile(r"[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]|\b(?:nie|tak|gra|gry|do|na|za|po|od|się)\b")
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')


def python_sources() -> list[Path]:
    return [p for p in SRC.rglob("*.py") if "catalogue" not in p.parts]


def literal_keys_in_python() -> dict[str, list[ast.Call | None]]:
    """Each literal catalogue key in the Python sources, with the calls that pass it first."""
    found: dict[str, list[ast.Call | None]] = {}
    for path in python_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {
            id(node.args[0]): node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and node.args
        }
        in_fstrings = {
            id(part)
            for node in ast.walk(tree)
            if isinstance(node, ast.JoinedStr)
            for part in node.values
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in in_fstrings
                and KEY.fullmatch(node.value)
            ):
                found.setdefault(node.value, []).append(calls.get(id(node)))
    return found


def js_strings(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^\s*(//|\*|/\*\*).*$", "", text, flags=re.MULTILINE)  # comments
    text = re.sub(r"\s// .*$", "", text, flags=re.MULTILINE)  # and those after code
    return [m.group(0)[1:-1] for m in STRING.finditer(text)]


def keys_in_js() -> set[str]:
    found: set[str] = set()
    for path in JS.rglob("*.js"):
        for string in js_strings(path):
            found |= {m for m in KEY.findall(string) if m in WORDS or not string.count("${")}
    return found


def families() -> set[str]:
    """The keys the server's tables name, each used wherever its table is shown."""
    keys = {f"level.{level}" for level in bots.LEVELS}
    keys |= {f"phase.{phase.value}" for phase in Phase}
    for key, values in CHOICES.items():
        keys |= {f"option.{key}.name", f"option.{key}.help"}
        keys |= {value_key(key, value) for value in values}
    for preset in PRESETS:
        keys |= {f"preset.{preset}.name", f"preset.{preset}.help"}
    for field in (texts.NICK, texts.NAME, texts.CHAT):
        for code in ("empty_text", "too_long", "too_many_marks", "bad_characters"):
            keys.add(f"error.{code}.{field.kind}")
    keys |= {f"error.vulgar.{kind}" for kind in violations.FIELDS}
    keys |= {f"error.{what}_step.{step}" for what in ("bid", "contract") for step in (10, 5)}
    actions = (SRC / "rules" / "actions.py").read_text(encoding="utf-8")
    keys |= {f"error.malformed.action.{w}" for w in re.findall(r'_malformed\("(\w+)"', actions)}
    # A card's names by its codes (rules/cards.py; a11y.js, cards.js and card_name spell
    # them as card.rank.${rank}, which no scan of literal keys sees).
    keys |= {f"card.{part}.{rank}" for part in ("rank", "face") for rank in cards.RANKS}
    keys |= {f"card.suit.{suit}" for suit in cards.SUITS}
    return keys


def counted_stems_in_js() -> set[str]:
    """The stems a page module counts with (counted("count.cards", n)): each stands for
    its plural forms (stem.one, .few, .many)."""
    found: set[str] = set()
    for path in JS.rglob("*.js"):
        found |= set(re.findall(r'\bcounted\(\s*"([^"$]+)"', path.read_text(encoding="utf-8")))
    return found


def test_every_key_the_server_uses_is_in_the_catalogue_with_its_placeholders() -> None:
    for key, calls in literal_keys_in_python().items():
        if any(word.startswith(f"{key}.") for word in families()):
            continue  # a family's stem: error.bid_step (.10, .5)
        assert key in WORDS, f"{key} is not in pl.json"
        for call in calls:
            if call is None or any(k.arg is None for k in call.keywords):
                continue  # not a call's first argument, or its parameters passed on (**)
            given = {k.arg for k in call.keywords if k.arg not in NOT_PARAMS}
            for arg in call.args[1:]:  # Word(key, {"until": …})
                if isinstance(arg, ast.Dict):
                    given |= {k.value for k in arg.keys if isinstance(k, ast.Constant)}
            assert given == catalogue.placeholders(WORDS[key]), (key, given)


def test_every_family_the_server_names_is_in_the_catalogue() -> None:
    missing = families() - WORDS.keys()
    assert not missing


def test_every_key_in_the_catalogue_is_used() -> None:
    used = set(literal_keys_in_python()) | keys_in_js() | families()
    used |= {f"{stem}.{form}" for stem in counted_stems_in_js() for form in PLURAL_FORMS}
    unused = WORDS.keys() - used
    assert not unused, f"keys nobody uses: {sorted(unused)}"


def test_every_key_the_page_uses_is_in_the_catalogue() -> None:
    for path in JS.rglob("*.js"):
        for key in re.findall(r'\bt\(\s*"([^"$]+)"', path.read_text(encoding="utf-8")):
            assert key in WORDS, f"{path.name}: {key}"
        for stem in re.findall(r'\bcounted\(\s*"([^"$]+)"', path.read_text(encoding="utf-8")):
            for form in PLURAL_FORMS:
                assert f"{stem}.{form}" in WORDS, f"{path.name}: {stem}.{form}"


def test_the_catalogue_keys_and_placeholders_are_well_formed() -> None:
    for key, template in WORDS.items():
        assert KEY.fullmatch(key), key
        assert all(name.isidentifier() for name in catalogue.placeholders(template)), key
        assert template == template.strip() and template, key


def test_text_fails_loudly() -> None:
    assert catalogue.text("error.already_seated", nick="Ala").endswith("jako Ala.")
    with pytest.raises(KeyError):
        catalogue.text("error.no_such_key")
    with pytest.raises(KeyError):
        catalogue.text("error.already_seated")  # a placeholder not given
    with pytest.raises(KeyError):
        catalogue.text("error.full", nick="Ala")  # a parameter the text has no place for


def test_option_ids_follow_the_table() -> None:
    assert [option_id(key) for key in CHOICES] == [f"V{n}" for n in range(1, 15)]


def polish_strings(path: Path) -> list[str]:
    return [s for s in js_strings(path) if POLISH.search(s) and not KEY.fullmatch(s)]


def test_the_page_holds_no_words_the_catalogue_does_not() -> None:
    for path in sorted(JS.rglob("*.js")):
        held = polish_strings(path)
        allowed = NOT_YET.get(path.relative_to(JS).as_posix(), 0)
        assert len(held) <= allowed, f"{path.relative_to(JS)} holds words of its own: {held}"


@pytest.mark.parametrize("name", sorted(NOT_YET))
def test_the_not_yet_converted_list_names_real_modules(name: str) -> None:
    assert (JS / name).is_file()
