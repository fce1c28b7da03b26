"""The catalogue (src/tysiac/catalogue/pl.json) is the one place of every name and sentence.

- every key the server, the rules and the page use is in it, with the same placeholders;
- every key in it is used (by its literal key, or as one of a family the server's tables
  name: an option's values, the levels, the phases);
- the page's modules hold no Polish text of their own (the few words a page needs
  without /api/site are the catalogue's, copied into its HTML and checked here);
- the pages' maxlength values are the server's limits.
"""

from __future__ import annotations

import ast
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from tools import check_catalogue

from tysiac import catalogue
from tysiac.rules.options import CHOICES, option_id
from tysiac.server.http import pages
from tysiac.server.moderation import texts

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "tysiac"
JS = SRC / "web" / "static" / "js"
WORDS = catalogue.words("pl")
# The groups of keys (docs/catalogue.md); a card's rank and suit are spelled by their codes
# (card.rank.Q, card.suit.H), the only capitals in a key.
GROUPS = (
    "error|moderation|option|options|preset|level|phase|seat|card|meld|count|log|result"
    "|outcome|turn|table|connection|home|contact|settings|language|manifest|page|review|document|moment"
)
# Not a file name: contact.html, manifest.webmanifest.
KEY = re.compile(rf"(?:{GROUPS})(?:\.(?!html\b|js\b|webmanifest\b)[A-Za-z0-9_]+)+")
# The forms of a counted text (a11y.js pluralForm, counted("count.cards", n)).
PLURAL_FORMS = ("one", "few", "many")
# Arguments of a refusal that are no placeholder.
NOT_PARAMS = {"status", "field", "more"}

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


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class DataT(HTMLParser):
    """The keys a page's HTML names (site.js fillPage): each element's ``data-t`` with the
    ``data-t-part`` names of its children, and the keys of its ``data-t-<attribute>``."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[tuple[str, set[str]]] = []
        self.attributes: set[str] = set()
        self.stack: list[set[str] | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        part = named.get("data-t-part")
        if part is not None and self.stack and self.stack[-1] is not None:
            self.stack[-1].add(part)
        self.attributes |= {
            value or ""
            for name, value in attrs
            if name.startswith("data-t-") and name != "data-t-part"
        }
        if tag in VOID:
            return
        parts: set[str] | None = None
        if "data-t" in named:
            parts = set()
            self.texts.append((named["data-t"] or "", parts))
        self.stack.append(parts)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()


def html_keys() -> list[tuple[str, set[str] | None]]:
    """Each key the pages' HTML names, with the parts of its element (None: an attribute)."""
    found: list[tuple[str, set[str] | None]] = []
    for path in sorted((SRC / "web" / "static").glob("*.html")):
        parser = DataT()
        parser.feed(path.read_text(encoding="utf-8"))
        found += parser.texts
        found += [(key, None) for key in parser.attributes]
    return found


def keys_in_html() -> set[str]:
    """The keys the pages' HTML names in its data-t attributes."""
    return {key for key, _ in html_keys()}


def families() -> set[str]:
    """The keys the server's tables name, each used wherever its table is shown (the same
    families as `make lint`'s check, tools/check_catalogue.py)."""
    return check_catalogue.families()


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
    used = set(literal_keys_in_python()) | keys_in_js() | keys_in_html() | families()
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


def test_every_key_the_html_names_is_in_the_catalogue_with_its_parts() -> None:
    """A text's placeholders are its element's data-t-part children; an attribute has none."""
    for key, parts in html_keys():
        assert key in WORDS, key
        assert catalogue.placeholders(WORDS[key]) == (parts or set()), key


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
    assert [option_id(key) for key in CHOICES] == [f"V{n}" for n in range(1, 16)]


def polish_strings(path: Path) -> list[str]:
    return [s for s in js_strings(path) if POLISH.search(s) and not KEY.fullmatch(s)]


# The only words a script may hold, each with why: the service worker answers a page it
# cannot load while offline and without offline.html cached; then there is no /api/site
# to ask and no page to carry a fallback.
ALLOWED = {"sw.js": ["Brak połączenia z internetem. Do gry potrzebny jest internet."]}


def test_the_page_holds_no_words_the_catalogue_does_not() -> None:
    static = SRC / "web" / "static"
    for path in sorted([*JS.rglob("*.js"), static / "sw.js"]):
        name = path.relative_to(static).as_posix().removeprefix("js/")
        held = polish_strings(path)
        assert held == ALLOWED.get(name, []), f"{name} holds words of its own: {held}"


FALLBACK = re.compile(
    r'<script type="application/json" id="words-fallback"[^>]*>(.*?)</script>', re.S
)


@pytest.mark.parametrize("page", sorted(p.name for p in (SRC / "web" / "static").glob("*.html")))
def test_the_pages_fallback_words_are_the_catalogues(page: str) -> None:
    """A page names the few words it shows without /api/site (site.js): "no connection",
    the offline page's; the server serves it with their texts in every language, as the
    catalogues have them."""
    held = (SRC / "web" / "static" / page).read_text(encoding="utf-8")
    assert [found for found in FALLBACK.findall(held) if found != "{}"] == []
    served = FALLBACK.findall(pages.with_fallback(held))
    assert len(served) <= 1
    for lang, words in (json.loads(served[0]) if served else {}).items():
        assert words and words.items() <= catalogue.words(lang).items(), (page, lang)
    if served:
        assert sorted(json.loads(served[0])) == sorted(catalogue.AVAILABLE)


@pytest.mark.parametrize(
    ("page", "field", "limit"),
    [
        ("index.html", "nick", texts.NICK_MAX),
        ("index.html", "game-name", texts.NAME_MAX),
        ("game.html", "join-nick", texts.NICK_MAX),
        ("game.html", "chat-text", texts.CHAT_MAX),
    ],
)
def test_the_pages_maxlengths_are_the_servers_limits(page: str, field: str, limit: int) -> None:
    """The fields' maxlength is the limit the server keeps (/api/site limits)."""
    html = (SRC / "web" / "static" / page).read_text(encoding="utf-8")
    tag = re.search(rf'<(?:input|textarea)\b[^>]*\bid="{field}"[^>]*>', html)
    assert tag and f'maxlength="{limit}"' in tag.group(0), (page, field)
